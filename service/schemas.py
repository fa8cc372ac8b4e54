"""Request bodies, validated at the edge with marshmallow (unknown fields are refused)."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields, validate


class PlayerCreate(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=40))


class GameCreate(Schema):
    ruleset = fields.String(required=True, validate=validate.Length(min=1, max=64))
    players = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=64))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    decision_timeout_s = fields.Integer(
        load_default=None,
        allow_none=True,
        strict=True,
        validate=validate.Range(min=1, max=30 * 24 * 3600),
    )


class Action(Schema):
    """Any action object: a `type`; the game checks the rest against its own schema."""

    class Meta:
        unknown = INCLUDE

    type = fields.String(required=True, validate=validate.Length(min=1, max=64))

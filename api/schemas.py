"""Request bodies, validated at the edge with marshmallow (unknown fields are refused)."""

from __future__ import annotations

import unicodedata
from typing import Any

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate, validates_schema

# Bidirectional embeddings, overrides and isolates: text after one of them is shown in
# another order ("\u202egnp.exe" reads as "exe.png"), so a name could pass for another.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# characters that draw nothing although their category says letter or symbol
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
INVISIBLE = ("Zs", "Zl", "Zp", "Cc", "Cf", "Mn", "Me", "Cs", "Co", "Cn")


def _visible(c: str) -> bool:
    return c not in BLANK_LETTERS and unicodedata.category(c) not in INVISIBLE


def _readable_name(text: str) -> None:
    """A name others will read: no control characters, no bidi overrides, and at least
    one character that shows (not only spaces, zero-width or combining characters)."""
    _no_control_characters(text)
    if any(c in BIDI_CONTROLS for c in text):
        raise ValidationError("must not hold bidirectional overrides (U+202A-202E, U+2066-2069)")
    if not any(_visible(c) for c in text):
        raise ValidationError("must hold a visible character (not only blanks or invisible ones)")


class PlayerCreate(Schema):
    name = fields.String(required=True, validate=[validate.Length(min=1, max=40), _readable_name])
    handle = fields.String(load_default=None, validate=validate.Length(min=2, max=24))


class PlayerUpdate(Schema):
    handle = fields.String(required=True, validate=validate.Length(min=2, max=24))


def _seconds(most: int, **more):
    return fields.Integer(
        load_default=None,
        allow_none=True,
        strict=True,
        validate=validate.Range(min=1, max=most),
        **more,
    )


HEX64 = "^[0-9a-f]{64}$"


def seat_commitment():
    """A seat's commitment to its secret (docs/fairness.md, "Seats' randomness")."""
    why = "must be 64 lowercase hex digits: the SHA-256 of your seat's 32-byte secret"
    return fields.String(load_default=None, validate=validate.Regexp(HEX64, error=why))


class RevealBody(Schema):
    why = "must be 64 lowercase hex digits: your seat's 32-byte secret"
    seat_secret = fields.String(required=True, validate=validate.Regexp(HEX64, error=why))


class RematchOffer(Schema):
    """How long a rematch holds the former players' seats, and what happens then
    (service.tables); also part of a new game's table terms. `seat_commitment`: the
    commitment of the creator's seat, when the creation seats it."""

    reserve_s = _seconds(30 * 24 * 3600)
    open_when_lapsed = fields.Boolean(load_default=False)
    seat_commitment = seat_commitment()


class JoinBody(Schema):
    secret = fields.String(load_default=None, validate=validate.Length(min=1, max=128))
    seat_commitment = seat_commitment()


class LeagueSeatSeed(Schema):
    """The commitment a league seats its member with (service.league_seeds)."""

    seat_commitment = fields.String(
        required=True,
        validate=validate.Regexp(
            HEX64, error="must be 64 lowercase hex digits: the end of your hash chain"
        ),
    )


class ComputerSeats(Schema):
    """Computer players for a game's free seats: their level, and how many (every free
    seat when left out)."""

    level = fields.String(
        required=True,
        validate=validate.OneOf(("quick", "strong"), error="must be one of {choices}"),
    )
    seats = fields.Integer(
        load_default=None, allow_none=True, strict=True, validate=validate.Range(min=1, max=63)
    )


class GameCreate(RematchOffer):
    ruleset = fields.String(required=True, validate=validate.Length(min=1, max=64))
    players = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=64))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    decision_timeout_s = fields.Integer(
        load_default=None,
        allow_none=True,
        strict=True,
        validate=validate.Range(min=1, max=30 * 24 * 3600),
    )
    unlisted = fields.Boolean(load_default=False)
    invite = fields.List(
        fields.String(validate=validate.Length(min=1, max=64)),
        load_default=list,
        validate=validate.Length(max=64),
    )
    join = fields.Boolean(load_default=False)
    computer = fields.Nested(ComputerSeats, load_default=None, allow_none=True)
    claim_after_s = fields.Integer(
        load_default=None,
        allow_none=True,
        strict=True,
        validate=validate.Range(min=1, max=30 * 24 * 3600),
    )


TYPE_MAX = 64  # an action type's longest name


class Action(Schema):
    """Any action object: a `type`; the game checks the rest against its own schema."""

    class Meta:
        unknown = INCLUDE

    type = fields.String(required=True, validate=validate.Length(min=1, max=TYPE_MAX))


ACTION = Action()  # one instance: a schema is built once, then loads any number of bodies
_ACTION_FIELDS = set(ACTION.fields)


def action(data: Any) -> dict[str, Any]:
    """Return an action body as `Action` loads it: a well-formed one without the schema
    (6 µs a body in marshmallow, for a check of one field), the same dict with the same
    key order; anything else through the schema, refused in its words."""
    if type(data) is dict:
        kind = data.get("type")
        if type(kind) is str and 1 <= len(kind) <= TYPE_MAX:
            loaded = {"type": kind}
            for key in set(data) - _ACTION_FIELDS:  # marshmallow's order for unknown fields
                loaded[key] = data[key]
            return loaded
    return ACTION.load(data)


class TableSize(fields.Field):
    """A table size: a whole number, or {"min": n, "max": m}; loads as (min, max)."""

    default_error_messages = {"invalid": 'a whole number, or {{"min": n, "max": m}} with n <= m'}

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, int) and not isinstance(value, bool):
            value = {"min": value, "max": value}
        if not isinstance(value, dict) or set(value) != {"min", "max"}:
            raise self.make_error("invalid")
        lo, hi = value["min"], value["max"]
        ok = all(isinstance(v, int) and not isinstance(v, bool) for v in (lo, hi))
        if not ok or not 1 <= lo <= hi <= 64:
            raise self.make_error("invalid")
        return lo, hi


class LeagueCreate(Schema):
    name = fields.String(load_default="", validate=validate.Length(max=80))
    ruleset = fields.String(required=True, validate=validate.Length(min=1, max=64))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    table_size = TableSize(required=True)
    rounds = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=100))
    start_at = fields.AwareDateTime(required=True, format="iso")
    cadence_s = fields.Integer(
        required=True, strict=True, validate=validate.Range(min=1, max=365 * 24 * 3600)
    )
    decision_timeout_s = fields.Integer(
        required=True, strict=True, validate=validate.Range(min=1, max=30 * 24 * 3600)
    )
    withdraw_after_timeouts = fields.Integer(
        load_default=3, strict=True, validate=validate.Range(min=0, max=1000)
    )
    points = fields.List(
        fields.Float(validate=validate.Range(min=0, max=1000)),
        load_default=None,
        validate=validate.Length(min=1, max=64),
    )
    late_join_until_round = fields.Integer(
        load_default=0, strict=True, validate=validate.Range(min=0, max=100)
    )
    bye_points = fields.Float(
        load_default=None, allow_none=True, validate=validate.Range(min=0, max=1000)
    )
    absence_window = fields.Integer(
        load_default=10, strict=True, validate=validate.Range(min=0, max=1000)
    )
    absence_share = fields.Float(load_default=0.6, validate=validate.Range(min=0.05, max=1))
    absence_days = fields.Integer(
        load_default=7, strict=True, validate=validate.Range(min=0, max=365)
    )
    forfeit_points = fields.Float(
        load_default=0, allow_none=True, validate=validate.Range(min=0, max=1000)
    )
    vacation_days = fields.Integer(
        load_default=14, strict=True, validate=validate.Range(min=0, max=365)
    )


class LeagueUpdate(LeagueCreate):
    """Any of a league's settings, each optional; at least one."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        for f in self.fields.values():
            f.required, f.load_default = False, fields.missing_

    @validates_schema
    def _something(self, data: dict[str, Any], **kwargs: Any) -> None:
        if not data:
            raise ValidationError("name at least one setting to change")


class Vacation(Schema):
    start = fields.AwareDateTime(required=True, format="iso", data_key="from")
    end = fields.AwareDateTime(required=True, format="iso", data_key="until")


class Substitution(Schema):
    player = fields.String(required=True, validate=validate.Length(min=1, max=64))
    substitute = fields.String(required=True, validate=validate.Length(min=1, max=64))


class MemberAdd(Schema):
    player = fields.String(required=True, validate=validate.Length(min=1, max=64))


def _reason_text(text: str) -> None:
    """A reason others will read: lines and tabs allowed, no other control character, no
    bidi override, something visible."""
    if any(unicodedata.category(c) == "Cc" and c not in "\n\t" for c in text):
        raise ValidationError("must not hold control characters (other than line breaks)")
    _readable_name(text.replace("\n", " ").replace("\t", " "))


REASON = [validate.Length(min=1, max=2000), _reason_text]
GAME_ID = validate.Length(min=1, max=128)


class DisputeOpen(Schema):
    game = fields.String(required=True, validate=GAME_ID)
    seq = fields.Integer(
        load_default=None, allow_none=True, strict=True, validate=validate.Range(min=1)
    )
    reason = fields.String(required=True, validate=REASON)


class RulingPost(Schema):
    game = fields.String(required=True, validate=GAME_ID)
    kind = fields.String(
        required=True,
        validate=validate.OneOf(["stands", "adjusted", "annulled", "forfeit", "replay"]),
    )
    reason = fields.String(required=True, validate=REASON)
    dispute = fields.Integer(
        load_default=None, allow_none=True, strict=True, validate=validate.Range(min=1)
    )
    points = fields.Dict(
        keys=fields.String(validate=validate.Length(min=1, max=64)),
        values=fields.Float(validate=validate.Range(min=0, max=1000)),
        load_default=None,
        validate=validate.Length(max=6),
    )
    players = fields.List(
        fields.String(validate=validate.Length(min=1, max=64)),
        load_default=None,
        validate=validate.Length(max=6),
    )


def _no_control_characters(text: str) -> None:
    if any(unicodedata.category(c) == "Cc" for c in text):
        raise ValidationError("must not hold control characters (line breaks included)")


class ChatPost(Schema):
    text = fields.String(
        required=True, validate=[validate.Length(min=1, max=500), _no_control_characters]
    )

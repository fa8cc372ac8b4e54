"""Request bodies of the notification channels (webhooks, Web Push, a player's settings),
validated at the edge with marshmallow as api/schemas.py does (unknown fields refused)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate


class WebhookCreate(Schema):
    """A webhook to register (service/notify/webhooks.py): where, and which types."""

    url = fields.String(required=True, validate=validate.Length(min=1, max=2048))
    types = fields.List(fields.String(validate=validate.Length(min=1, max=40)), load_default=[])


class WebhookUpdate(Schema):
    url = fields.String(validate=validate.Length(min=1, max=2048))
    types = fields.List(fields.String(validate=validate.Length(min=1, max=40)))
    enabled = fields.Boolean()


class PushKeys(Schema):
    p256dh = fields.String(required=True, validate=validate.Length(min=1, max=200))
    auth = fields.String(required=True, validate=validate.Length(min=1, max=100))


class PushSubscriptionCreate(Schema):
    """A browser's PushSubscription.toJSON() (service/notify/push.py)."""

    endpoint = fields.String(required=True, validate=validate.Length(min=1, max=2048))
    expirationTime = fields.Integer(load_default=None, allow_none=True)  # noqa: N815
    keys = fields.Nested(PushKeys, required=True)


CLOCK = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"


class QuietHours(Schema):
    start = fields.String(
        required=True, validate=validate.Regexp(CLOCK, error="HH:MM, 00:00-23:59")
    )
    end = fields.String(required=True, validate=validate.Regexp(CLOCK, error="HH:MM, 00:00-23:59"))


class NotifySettings(Schema):
    """`PATCH /v1/players/me/notification-settings`: only the fields sent change. The
    time zone and the types and channels are checked against tzdata and the catalog
    (service.notify.prefs)."""

    lang = fields.String(validate=validate.OneOf(["en", "es"]))
    time_zone = fields.String(validate=validate.Length(min=1, max=64))
    quiet_hours = fields.Nested(QuietHours, allow_none=True)
    reminder = fields.Float(allow_none=True, validate=validate.Range(min=0.01, max=0.99))
    digest_hour = fields.Integer(allow_none=True, strict=True, validate=validate.Range(0, 23))
    email = fields.Email(allow_none=True, validate=validate.Length(max=254))
    types = fields.Dict(
        keys=fields.String(validate=validate.Length(max=64)),
        values=fields.Dict(
            keys=fields.String(validate=validate.Length(max=16)),
            values=fields.Boolean(truthy={True}, falsy={False}),
        ),
    )

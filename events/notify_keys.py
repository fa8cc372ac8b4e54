"""The Redis keys of notifications (service/notify, docs/notifications.md): deliveries,
a player's settings and read marks, webhooks and Web Push subscriptions. When each
notification is due is `events.keys.notify_due`, beside the other schedules."""

from __future__ import annotations

from events.keys import PREFIX


def notify_done(note_id: str, channel: str, target: str) -> str:
    """Set once a notification's delivery to one target ended (sent, or never to be)."""
    return f"{PREFIX}:notify:done:{note_id}:{channel}:{target}"


def notify_attempts(note_id: str) -> str:
    """A notification's delivery attempts so far, per `<channel>|<target>`."""
    return f"{PREFIX}:notify:attempts:{note_id}"


def notify_secret() -> str:
    """The key that signs unsubscribe and address verification links."""
    return f"{PREFIX}:notify:secret"


def player_notify(player_id: str) -> str:
    """A player's notification settings (JSON)."""
    return f"{PREFIX}:player:{player_id}:notify"


def player_notes_read(player_id: str) -> str:
    """The ids of a player's notifications marked read one by one (a set)."""
    return f"{PREFIX}:player:{player_id}:notes:read"


def player_notes_seen(player_id: str) -> str:
    """The feed id up to which every notification of the player is read."""
    return f"{PREFIX}:player:{player_id}:notes:seen"


def player_notify_log(player_id: str) -> str:
    """The newest delivery attempts of a player's notifications (a capped list)."""
    return f"{PREFIX}:player:{player_id}:notify:log"


def notify_sending(note_id: str, channel: str, target: str) -> str:
    """Held while one worker sends a notification to one target (a lease: it expires)."""
    return f"{PREFIX}:notify:sending:{note_id}:{channel}:{target}"


def player_digest(player_id: str) -> str:
    """The feed id up to which the player's daily digest told of notifications."""
    return f"{PREFIX}:player:{player_id}:notify:digest"


def player_webhooks(player_id: str) -> str:
    """A player's webhooks (service/notify/webhooks.py): id -> JSON record."""
    return f"{PREFIX}:player:{player_id}:webhooks"


def player_webhook_failures(player_id: str) -> str:
    """Each webhook's failed delivery attempts in a row: id -> count."""
    return f"{PREFIX}:player:{player_id}:webhooks:failures"


def webhook_deliveries(webhook_id: str) -> str:
    """A webhook's newest delivery attempts (a capped list of JSON, newest first)."""
    return f"{PREFIX}:webhook:{webhook_id}:deliveries"


def player_push(player_id: str) -> str:
    """A player's Web Push subscriptions (service/notify/push.py): id -> JSON record."""
    return f"{PREFIX}:player:{player_id}:push"

"""A player's notification settings (service.notify.prefs): language, time zone, quiet
hours, reminder point, digest hour, the e-mail address with whether its link was opened
(verified), and what each channel tells of each type. Kept as one JSON object holding
only what the player set; None when they never set anything.

Key (events.notify_keys): `mf:player:<id>:notify` (JSON)."""

from __future__ import annotations

import json
from typing import Any, Protocol

import redis

from events import notify_keys


class NotifyPrefsStore(Protocol):
    def settings(self, player_id: str) -> dict[str, Any] | None:
        """What the player set (None: nothing ever)."""

    def keep(self, player_id: str, settings: dict[str, Any]) -> None:
        """Replace what the player set by `settings`."""


def read_settings(pipe: Any, player_id: str) -> None:
    """Queue on a Redis pipeline the read of the player's settings (one round trip shared
    with other reads: stores.recipients); `settings_from` takes its answer."""
    pipe.get(notify_keys.player_notify(player_id))


def settings_from(raw: bytes | str | None) -> dict[str, Any] | None:
    return json.loads(raw) if raw else None


class RedisNotifyPrefs:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def settings(self, player_id: str) -> dict[str, Any] | None:
        return settings_from(self.redis.get(notify_keys.player_notify(player_id)))

    def keep(self, player_id: str, settings: dict[str, Any]) -> None:
        text = json.dumps(settings, separators=(",", ":"))
        self.redis.set(notify_keys.player_notify(player_id), text)

"""Notification settings in memory (stores.notify_prefs.RedisNotifyPrefs's twin): kept as
JSON text, so a caller changing what it read changes nothing kept."""

from __future__ import annotations

import json
from typing import Any


class MemoryNotifyPrefs:
    def __init__(self) -> None:
        self._kept: dict[str, str] = {}

    def settings(self, player_id: str) -> dict[str, Any] | None:
        raw = self._kept.get(player_id)
        return json.loads(raw) if raw else None

    def keep(self, player_id: str, settings: dict[str, Any]) -> None:
        self._kept[player_id] = json.dumps(settings, separators=(",", ":"))

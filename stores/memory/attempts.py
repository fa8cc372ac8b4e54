"""Refused attempts in memory (stores.attempts.RedisAttempts's twin)."""

from __future__ import annotations

import json
from typing import Any


class MemoryAttempts:
    def __init__(self) -> None:
        self._kept: dict[str, list[str]] = {}

    def keep(self, game_id: str, entry: dict[str, Any], most: int) -> None:
        kept = self._kept.setdefault(game_id, [])
        kept.insert(0, json.dumps(entry, separators=(",", ":")))
        del kept[most:]

    def newest(self, game_id: str, most: int) -> list[dict[str, Any]]:
        return [json.loads(raw) for raw in self._kept.get(game_id, [])[:most]]

"""The actions a game refused its seated players (service.attempts), newest first, the
newest `keep` only: `mf:{g:<id>}:refused` (a list of JSON entries, in the game's slot)."""

from __future__ import annotations

import json
from typing import Any, Protocol

import redis

from events import keys


class AttemptsStore(Protocol):
    def keep(self, game_id: str, entry: dict[str, Any], most: int) -> None:
        """Keep a refused attempt; only the newest `most` of the game stay."""

    def newest(self, game_id: str, most: int) -> list[dict[str, Any]]:
        """Up to `most` of the game's refused attempts, newest first."""


class RedisAttempts:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def keep(self, game_id: str, entry: dict[str, Any], most: int) -> None:
        key = keys.game_refused(game_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.lpush(key, json.dumps(entry, separators=(",", ":")))
        pipe.ltrim(key, 0, most - 1)
        pipe.execute()

    def newest(self, game_id: str, most: int) -> list[dict[str, Any]]:
        return [
            json.loads(raw) for raw in self.redis.lrange(keys.game_refused(game_id), 0, most - 1)
        ]

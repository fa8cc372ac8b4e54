"""Every game ever stored, and what the lobby knows of each (service.transparency's sweep,
service.backfill): the sweep walks every stored game, and reads a game's status from its
lobby summary before it reads its log.

Keys (events.keys): `mf:games` (sorted set: every game, scored by its creation time, added
once) and `mf:{lobby}:summaries` (hash: game id -> the lobby's JSON summary of it, with
its `status`; written by the lobby's script, only read here).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, Protocol

import redis

from events import keys


class GameIndexStore(Protocol):
    def register(self, game_id: str, at: float) -> None:
        """Remember a new game among every game stored (the first time only)."""

    def every(self, batch: int) -> Iterator[list[str]]:
        """Every stored game's id, in lists of at most `batch` (each game once, unless
        it is added meanwhile)."""

    def count(self) -> int:
        """How many games are stored."""

    def summaries(self, game_ids: list[str]) -> list[dict[str, Any] | None]:
        """The lobby's summaries of these games, in order (None: no summary kept)."""

    def summarized(self) -> int:
        """How many games the lobby keeps a summary of."""


class RedisGameIndex:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def register(self, game_id: str, at: float) -> None:
        self.redis.zadd(keys.games(), {game_id: at}, nx=True)

    def every(self, batch: int) -> Iterator[list[str]]:
        found: list[str] = []
        for member, _ in self.redis.zscan_iter(keys.games(), count=batch):
            found.append(member.decode())
            if len(found) == batch:
                yield found
                found = []
        if found:
            yield found

    def count(self) -> int:
        return int(self.redis.zcard(keys.games()))

    def summaries(self, game_ids: list[str]) -> list[dict[str, Any] | None]:
        if not game_ids:
            return []
        raws = self.redis.hmget(keys.lobby_summaries(), game_ids)
        return [json.loads(raw) if raw else None for raw in raws]

    def summarized(self) -> int:
        return int(self.redis.hlen(keys.lobby_summaries()))

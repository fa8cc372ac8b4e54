"""The lobby's index (service.lobby): each game's summary, the games by status and by
ruleset (sorted by creation), every game ever created, and the key that seals the
lobby's `next` cursors.

Keys (events.keys): `mf:{lobby}:summaries` (hash: game id -> JSON summary with its
version), `mf:{lobby}:all|waiting|active|finished` and `mf:{lobby}:ruleset:<name>`
(sorted sets scored by creation ms), `mf:{lobby}:cursor_key`, `mf:games` (every game, by
creation time: what the public log's sweep and the lobby's backfill walk). A player's
games (`mf:player:<id>:history`) are written by service.inbox with the append; the lobby
only reads them here. `index` is one Lua call on the `{lobby}` keys
(events.scripts.LOBBY_INDEX): the summary with the newest version wins.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any, Protocol

import redis

from events import keys, scripts

STATUSES = ("waiting", "active", "finished")

# what a page reads: ("status", "all" | a status), ("ruleset", name) or ("player", id)
Listing = tuple[str, str]


class LobbyStore(Protocol):
    def index(
        self, game_id: str, version: int, summary: dict[str, Any], listed: str, created_ms: int
    ) -> bool:
        """Keep the game's summary and file it under `listed` (a status, or `unlisted`
        and any other word: in no set) and its ruleset; False (nothing written) if a
        summary of this version or a later one is kept already."""

    def summaries(self, game_ids: list[str]) -> list[dict[str, Any] | None]:
        """The summaries of these games, in order (None: no summary kept)."""

    def newest(
        self, listing: Listing, top: float, skip: int, count: int
    ) -> list[tuple[str, float]]:
        """Up to `count` (game id, creation ms) of `listing` scored `top` or lower,
        newest first, after skipping `skip` of them."""

    def active(self) -> list[str]:
        """The active games, oldest first."""

    def register(self, game_id: str, at: float) -> None:
        """Remember a new game among every game created (the first time only)."""

    def every(self, batch: int) -> Iterator[list[str]]:
        """Every created game's id, in lists of at most `batch` (each game once, unless
        it is added meanwhile): the public log's sweep, the backfill."""

    def count(self) -> int:
        """How many games were created."""

    def summarized(self) -> int:
        """How many games the lobby keeps a summary of."""

    def cursor_key(self, again: bool = False) -> bytes:
        """The 32 bytes that seal cursors: drawn once for every process, read once by
        this one (`again`: read it anew)."""


def _listing_key(listing: Listing) -> str:
    kind, name = listing
    if kind == "player":
        return keys.player_history(name)
    return keys.lobby_ruleset(name) if kind == "ruleset" else keys.lobby(name)


class RedisLobby:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self._cursor_key: bytes | None = None

    def index(
        self, game_id: str, version: int, summary: dict[str, Any], listed: str, created_ms: int
    ) -> bool:
        script = scripts.registered(self.redis, scripts.LOBBY_INDEX)
        status_keys = [keys.lobby(s) for s in STATUSES]
        lists = [keys.lobby_summaries(), keys.lobby("all"), *status_keys]
        return bool(
            script(
                keys=[*lists, keys.lobby_ruleset(summary["ruleset"])],
                args=[game_id, version, json.dumps(summary), listed, created_ms],
            )
        )

    def summaries(self, game_ids: list[str]) -> list[dict[str, Any] | None]:
        if not game_ids:
            return []
        raws = self.redis.hmget(keys.lobby_summaries(), game_ids)
        return [json.loads(raw) if raw else None for raw in raws]

    def newest(
        self, listing: Listing, top: float, skip: int, count: int
    ) -> list[tuple[str, float]]:
        batch = self.redis.zrevrangebyscore(
            _listing_key(listing),
            "+inf" if top == float("inf") else top,
            "-inf",
            start=skip,
            num=count,
            withscores=True,
        )
        return [(member.decode(), score) for member, score in batch]

    def active(self) -> list[str]:
        return [m.decode() for m in self.redis.zrange(keys.lobby("active"), 0, -1)]

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

    def summarized(self) -> int:
        return int(self.redis.hlen(keys.lobby_summaries()))

    def cursor_key(self, again: bool = False) -> bytes:
        if self._cursor_key is None or again:
            self.redis.set(keys.lobby_cursor_key(), os.urandom(32), nx=True)
            self._cursor_key = self.redis.get(keys.lobby_cursor_key())
        return self._cursor_key

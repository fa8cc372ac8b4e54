"""The leagues beside their logs: the index of every league (newest first), each member's
seat commitment (service.league_seeds), and what a league's append stored under its
idempotency key (service.league_log). A league's log itself goes through the recorder
(events.recording, `Log.league`).

Keys (events.keys): `mf:leagues` (sorted set of league ids scored by creation time, added
by the league's first append, atomic with it: `index_new` puts the write in the append's
follow-up `Writes`), `mf:{l:<id>}:seat-seeds` (hash: member id -> commitment, outside any
log) and `mf:{l:<id>}:idem` (hash: key -> "<first> <last> <digest>", written by the
append script).
"""

from __future__ import annotations

from typing import Protocol

import redis

from events import keys
from events.recording import Writes


class LeagueStore(Protocol):
    def index_new(self, then: Writes, league_id: str, created: float) -> None:
        """List a new league (created at Unix time `created`) with the append `then`
        follows."""

    def position(self, league_id: str) -> int | None:
        """Where the league lies in the index, newest first from 0 (None: not listed)."""

    def newest(self, start: int, count: int) -> list[str]:
        """Up to `count` league ids from position `start`, newest first."""

    def count(self) -> int:
        """How many leagues the index lists."""

    def answered(self, league_id: str, idem: str) -> str | None:
        """What the league's append with idempotency key `idem` stored, or None."""

    def keep_commitment(self, league_id: str, player_id: str, commitment: str) -> None:
        """Hold `commitment` as the member's seat commitment (replacing the one held)."""

    def commitment(self, league_id: str, player_id: str) -> str | None:
        """The member's seat commitment held now, or None."""


class RedisLeagues:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def index_new(self, then: Writes, league_id: str, created: float) -> None:
        then.zadd(keys.leagues(), {league_id: created})

    def position(self, league_id: str) -> int | None:
        return self.redis.zrevrank(keys.leagues(), league_id)

    def newest(self, start: int, count: int) -> list[str]:
        return [m.decode() for m in self.redis.zrevrange(keys.leagues(), start, start + count - 1)]

    def count(self) -> int:
        return int(self.redis.zcard(keys.leagues()))

    def answered(self, league_id: str, idem: str) -> str | None:
        stored = self.redis.hget(keys.league_idem(league_id), idem)
        return stored.decode() if stored is not None else None

    def keep_commitment(self, league_id: str, player_id: str, commitment: str) -> None:
        self.redis.hset(keys.league_seat_seeds(league_id), player_id, commitment)

    def commitment(self, league_id: str, player_id: str) -> str | None:
        found = self.redis.hget(keys.league_seat_seeds(league_id), player_id)
        return found.decode() if found else None

"""The players' port (service.players, service.profiles): each player's record (name,
handle, when registered), the handles (one player each, compared case-folded), how many
games each player finished per ruleset (written with the games' appends, service.inbox;
the unfinished games a player sits in are the inbox's, stores.inbox).

A handle is claimed before it is written into a record, so a taken one changes nothing;
a record's handle is replaced atomically (two updates never both read the same old one),
and a handle is freed only while it still names the player freeing it.
"""

from __future__ import annotations

from typing import Protocol

import redis

from events import keys
from stores.tokens import Issued, stage_issue

FIELDS = ("name", "handle", "created")


class PlayerStore(Protocol):
    def claim_handle(self, folded: str, player_id: str) -> bool:
        """Bind a (case-folded) handle to a player unless it is bound; return True if
        this call bound it."""

    def holder(self, folded: str) -> str | None:
        """The id of the player a handle names, or None."""

    def free_handle(self, folded: str, player_id: str) -> bool:
        """Unbind a handle if it still names `player_id`; return True if it did."""

    def create(self, player_id: str, record: dict[str, str], token: Issued) -> None:
        """Keep a new player's record with its first token (stores.tokens)."""

    def set_handle(self, player_id: str, handle: str) -> str | None:
        """Write `handle` into the player's record; return the handle it replaced."""

    def record(self, player_id: str) -> dict[str, str | None] | None:
        """The player's {name, handle, created} (None where not set), or None if no
        such player."""

    def name(self, player_id: str) -> str | None:
        """The player's name, or None if no such player."""

    def played(self, player_id: str) -> dict[str, int]:
        """How many games the player finished, per ruleset."""


class RedisPlayers:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def claim_handle(self, folded: str, player_id: str) -> bool:
        return bool(self.redis.set(keys.handle(folded), player_id, nx=True))

    def holder(self, folded: str) -> str | None:
        found = self.redis.get(keys.handle(folded))
        return found.decode() if found else None

    def free_handle(self, folded: str, player_id: str) -> bool:
        with self.redis.pipeline() as pipe:
            try:
                pipe.watch(keys.handle(folded))
                if pipe.get(keys.handle(folded)) != player_id.encode():
                    return False
                pipe.multi()
                pipe.delete(keys.handle(folded))
                pipe.execute()
                return True
            except redis.WatchError:
                return False  # changed meanwhile: it is no longer ours to free

    def create(self, player_id: str, record: dict[str, str], token: Issued) -> None:
        pipe = self.redis.pipeline(transaction=False)  # two slots in a cluster
        pipe.hset(keys.player(player_id), mapping=record)
        stage_issue(pipe, token)
        pipe.execute()

    def set_handle(self, player_id: str, handle: str) -> str | None:
        record = keys.player(player_id)
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(record)
                    old = pipe.hget(record, "handle")
                    pipe.multi()
                    pipe.hset(record, "handle", handle)
                    pipe.execute()
                    return old.decode() if old else None
                except redis.WatchError:
                    continue  # another update moved the record first: read it again

    def record(self, player_id: str) -> dict[str, str | None] | None:
        values = self.redis.hmget(keys.player(player_id), *FIELDS)
        if values[0] is None:
            return None
        return {f: v.decode() if v else None for f, v in zip(FIELDS, values, strict=True)}

    def name(self, player_id: str) -> str | None:
        found = self.redis.hget(keys.player(player_id), "name")
        return found.decode() if found is not None else None

    def played(self, player_id: str) -> dict[str, int]:
        raw = self.redis.hgetall(keys.player_played(player_id))
        return {k.decode(): int(v) for k, v in raw.items()}

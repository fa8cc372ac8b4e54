"""Where each of the service's signing keys has its `key` leaf in the public log
(service.key_history), and which key was logged last (the one the next rotation retires).

Key (events.tlog_keys): `mf:{tlog}:keys` (hash: key id -> leaf index, and `last` -> the
key id logged last; one HSET writes both).
"""

from __future__ import annotations

from typing import Protocol

import redis

from events import tlog_keys

LAST = "last"


class KeyHistoryStore(Protocol):
    def last_logged(self) -> str | None:
        """The id of the key whose leaf was logged last, or None (no key logged yet)."""

    def logged(self, key_id: str, index: int) -> None:
        """Note that key `key_id`'s leaf is leaf `index`, and that it was logged last."""

    def leaves(self) -> dict[str, int]:
        """Every logged key's id and the index of its leaf."""


class RedisKeyHistory:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def last_logged(self) -> str | None:
        last = self.redis.hget(tlog_keys.tlog_keys(), LAST)
        return None if last is None else last.decode()

    def logged(self, key_id: str, index: int) -> None:
        self.redis.hset(tlog_keys.tlog_keys(), mapping={key_id: index, LAST: key_id})

    def leaves(self) -> dict[str, int]:
        found = self.redis.hgetall(tlog_keys.tlog_keys())
        return {k.decode(): int(v) for k, v in found.items() if k != LAST.encode()}

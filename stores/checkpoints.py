"""The witnesses' cosigned checkpoints of the public log (service.checkpoints): for each
witness the operator configured, the newest checkpoint it cosigned, as a signed note (the
checkpoint's text, the log's signature line and the witness's cosignature line).

Key (events.tlog_keys): `mf:{tlog}:witnessed` (hash: witness name -> note).
"""

from __future__ import annotations

from typing import Protocol

import redis

from events import tlog_keys


class CheckpointStore(Protocol):
    def cosigned(self, witness: str) -> str | None:
        """The note kept for `witness`, or None."""

    def every_cosigned(self) -> list[str]:
        """Every witness's kept note (in no particular order)."""

    def keep_cosigned(self, witness: str, text: str) -> None:
        """Keep `text` as `witness`'s note, replacing the one kept."""


class RedisCheckpoints:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def cosigned(self, witness: str) -> str | None:
        kept = self.redis.hget(tlog_keys.tlog_witnessed(), witness)
        return None if kept is None else kept.decode()

    def every_cosigned(self) -> list[str]:
        return [raw.decode() for raw in self.redis.hvals(tlog_keys.tlog_witnessed())]

    def keep_cosigned(self, witness: str, text: str) -> None:
        self.redis.hset(tlog_keys.tlog_witnessed(), witness, text)

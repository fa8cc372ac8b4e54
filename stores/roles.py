"""The roles' port (service.roles): which players hold each role granted through the
API or the CLI, and the log of every grant and revocation (newest kept, LOG_MAXLEN)."""

from __future__ import annotations

import json
from typing import Any, Protocol

import redis

from events import keys

LOG_MAXLEN = 10_000  # changes kept (approximately, on Redis)


class RoleStore(Protocol):
    def holds(self, role: str, player_id: str) -> bool:
        """True if the player was granted `role`."""

    def add(self, role: str, player_id: str) -> bool:
        """Grant `role`; return False if the player held it already."""

    def remove(self, role: str, player_id: str) -> bool:
        """Take `role` back; return False if the player did not hold it."""

    def holders(self, role: str) -> list[str]:
        """The players granted `role`, by id."""

    def log(self, change: dict[str, Any]) -> None:
        """Append a change ({player, role, change, by, at}) to the log."""

    def changes(self, count: int) -> list[dict[str, Any]]:
        """The newest `count` changes of the log, newest first."""


class RedisRoles:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def holds(self, role: str, player_id: str) -> bool:
        return bool(self.redis.sismember(keys.role(role), player_id))

    def add(self, role: str, player_id: str) -> bool:
        return bool(self.redis.sadd(keys.role(role), player_id))

    def remove(self, role: str, player_id: str) -> bool:
        return bool(self.redis.srem(keys.role(role), player_id))

    def holders(self, role: str) -> list[str]:
        return sorted(raw.decode() for raw in self.redis.smembers(keys.role(role)))

    def log(self, change: dict[str, Any]) -> None:
        entry = {"e": json.dumps(change)}
        self.redis.xadd(keys.role_log(), entry, maxlen=LOG_MAXLEN, approximate=True)

    def changes(self, count: int) -> list[dict[str, Any]]:
        return [json.loads(f[b"e"]) for _, f in self.redis.xrevrange(keys.role_log(), count=count)]

"""The roles in memory: the twin of stores.roles.RedisRoles (tests/stores/
test_roles_contract.py runs both)."""

from __future__ import annotations

from typing import Any

from stores.roles import LOG_MAXLEN


class MemoryRoles:
    def __init__(self) -> None:
        self.granted: dict[str, set[str]] = {}
        self.kept: list[dict[str, Any]] = []

    def holds(self, role: str, player_id: str) -> bool:
        return player_id in self.granted.get(role, set())

    def add(self, role: str, player_id: str) -> bool:
        held = self.granted.setdefault(role, set())
        if player_id in held:
            return False
        held.add(player_id)
        return True

    def remove(self, role: str, player_id: str) -> bool:
        held = self.granted.get(role, set())
        if player_id not in held:
            return False
        held.discard(player_id)
        return True

    def holders(self, role: str) -> list[str]:
        return sorted(self.granted.get(role, set()))

    def log(self, change: dict[str, Any]) -> None:
        self.kept.append(dict(change))
        del self.kept[:-LOG_MAXLEN]

    def changes(self, count: int) -> list[dict[str, Any]]:
        return [dict(c) for c in reversed(self.kept[-count:])] if count > 0 else []

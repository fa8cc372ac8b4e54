"""Sorted sets in memory, ordered as Redis orders them (by score, then by member), for the
twins of the indexes the lobby and the tables keep.

A player's games, history and invitations are written by service.inbox in an append's
follow-up writes (events.recording.Writes); the in-memory recorder only lists those
commands (`MemoryRecorder.writes`). `follow` is that list: its ZADD and ZREM are
applied before every read (stores.memory.following), so a twin sees the players'
indexes as Redis would hold them.
"""

from __future__ import annotations

from stores.memory.following import Command, Following


class SortedSets(Following):
    def __init__(self, follow: list[Command] | None = None) -> None:
        super().__init__(follow)
        self._sets: dict[str, dict[str, float]] = {}

    def apply(self, command: Command) -> None:
        if command[0] == "ZADD":
            self._sets.setdefault(command[1], {})[command[3]] = float(command[2])
        elif command[0] == "ZREM":
            for m in command[2:]:
                self._sets.get(command[1], {}).pop(m, None)

    def add(self, key: str, member: str, score: float, only_new: bool = False) -> None:
        self.sync()
        held = self._sets.setdefault(key, {})
        if not (only_new and member in held):
            held[member] = score

    def remove(self, key: str, *members: str) -> None:
        self.sync()
        held = self._sets.get(key, {})
        for m in members:
            held.pop(m, None)

    def ascending(self, key: str) -> list[tuple[str, float]]:
        """Every member with its score, lowest first (ZRANGE ... WITHSCORES)."""
        self.sync()
        return sorted(self._sets.get(key, {}).items(), key=lambda kv: (kv[1], kv[0]))

    def descending(self, key: str, top: float = float("inf")) -> list[tuple[str, float]]:
        """The members scored `top` or lower, highest first (ZREVRANGEBYSCORE)."""
        return [kv for kv in reversed(self.ascending(key)) if kv[1] <= top]

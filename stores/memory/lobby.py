"""The lobby's index in memory (stores.lobby.RedisLobby's twin)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

from events import keys
from stores.lobby import STATUSES, Listing
from stores.memory.sorted_sets import SortedSets


class MemoryLobby:
    def __init__(self, players: SortedSets | None = None) -> None:
        """`players`: the players' indexes (their histories), as the appends wrote them."""
        self.sets, self.players = SortedSets(), players or SortedSets()
        self._summaries: dict[str, str] = {}
        self._key = os.urandom(32)

    def index(
        self, game_id: str, version: int, summary: dict[str, Any], listed: str, created_ms: int
    ) -> bool:
        old = self._summaries.get(game_id)
        if old is not None and json.loads(old)["version"] >= version:
            return False
        self._summaries[game_id] = json.dumps(summary)
        ruleset = f"ruleset:{summary['ruleset']}"
        for s in (*STATUSES, "all"):
            self.sets.remove(s, game_id)
        self.sets.remove(ruleset, game_id)
        if listed in STATUSES:
            for where in (listed, "all", ruleset):
                self.sets.add(where, game_id, created_ms)
        return True

    def summaries(self, game_ids: list[str]) -> list[dict[str, Any] | None]:
        return [json.loads(raw) if (raw := self._summaries.get(g)) else None for g in game_ids]

    def newest(
        self, listing: Listing, top: float, skip: int, count: int
    ) -> list[tuple[str, float]]:
        kind, name = listing
        if kind == "player":
            found = self.players.descending(keys.player_history(name), top)
        else:
            found = self.sets.descending(f"ruleset:{name}" if kind == "ruleset" else name, top)
        return found[skip : skip + count]

    def active(self) -> list[str]:
        return [g for g, _ in self.sets.ascending("active")]

    def register(self, game_id: str, at: float) -> None:
        self.sets.add("games", game_id, at, only_new=True)

    def every(self, batch: int) -> Iterator[list[str]]:
        listed = [g for g, _ in self.sets.ascending("games")]
        for start in range(0, len(listed), batch):
            yield listed[start : start + batch]

    def count(self) -> int:
        return len(self.sets.ascending("games"))

    def summarized(self) -> int:
        return len(self._summaries)

    def cursor_key(self, again: bool = False) -> bytes:
        return self._key

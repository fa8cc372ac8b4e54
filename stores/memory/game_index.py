"""Every stored game in memory (stores.game_index.RedisGameIndex's twin). The lobby's
summaries are the lobby's to write: `summarize` keeps one here as the lobby would."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any


class MemoryGameIndex:
    def __init__(self) -> None:
        self._games: dict[str, float] = {}
        self._summaries: dict[str, str] = {}

    def register(self, game_id: str, at: float) -> None:
        self._games.setdefault(game_id, at)

    def every(self, batch: int) -> Iterator[list[str]]:
        listed = list(self._games)
        for start in range(0, len(listed), batch):
            yield listed[start : start + batch]

    def count(self) -> int:
        return len(self._games)

    def summaries(self, game_ids: list[str]) -> list[dict[str, Any] | None]:
        return [json.loads(raw) if (raw := self._summaries.get(g)) else None for g in game_ids]

    def summarized(self) -> int:
        return len(self._summaries)

    def summarize(self, game_id: str, summary: dict[str, Any]) -> None:
        """Keep the lobby's summary of a game (the lobby's write, not this port's)."""
        self._summaries[game_id] = json.dumps(summary)

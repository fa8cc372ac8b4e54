"""Counters in memory (stores.limits.RedisLimits's twin); time comes from `clock` (a
test may pass its own). A first trip reads the token's record from `token_record` (the
tokens' twin's lookup, given by whoever builds this one; by default no token is known)
and the game from `games`, the in-memory repository."""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from events.repository import GameRepository
from stores.limits import FirstTrip


class MemoryLimits:
    def __init__(
        self,
        games: GameRepository | None = None,
        token_record: Callable[[str], bytes | None] = lambda digest: None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.games, self.token_record, self.clock = games, token_record, clock
        self._windows: dict[str, tuple[int, float]] = {}  # counter -> (calls, end)
        self._sweep_until = float("-inf")

    def count(self, counter: str, window_s: int, quick: bool = False) -> tuple[int, int]:
        now = self.clock()
        calls, end = self._windows.get(counter, (0, now))
        if end <= now:
            calls, end = 0, now + window_s
        self._windows[counter] = (calls + 1, end)
        return calls + 1, math.ceil((end - now) * 1000)

    def first_trip(
        self, digest: str | None, counter: str, window_s: int, game_id: str | None, quick: bool
    ) -> FirstTrip:
        token = self.token_record(digest) if digest is not None else None
        calls, left_ms = self.count(counter, window_s)
        games = self.games
        game = None if game_id is None or games is None else (lambda: games.load(game_id))
        return FirstTrip(token, calls, left_ms, game)

    def take_sweep_turn(self, every_s: float) -> bool:
        now = self.clock()
        if now < self._sweep_until:
            return False
        self._sweep_until = now + every_s
        return True

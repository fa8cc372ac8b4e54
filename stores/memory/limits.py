"""Counters in memory (stores.limits.RedisLimits's twin); time comes from `clock` (a
test may pass its own)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable


class MemoryLimits:
    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._windows: dict[str, tuple[int, float]] = {}  # counter -> (calls, end)
        self._sweep_until = float("-inf")

    def count(self, counter: str, window_s: int) -> tuple[int, int]:
        now = self.clock()
        calls, end = self._windows.get(counter, (0, now))
        if end <= now:
            calls, end = 0, now + window_s
        self._windows[counter] = (calls + 1, end)
        return calls + 1, math.ceil((end - now) * 1000)

    def take_sweep_turn(self, every_s: float) -> bool:
        now = self.clock()
        if now < self._sweep_until:
            return False
        self._sweep_until = now + every_s
        return True

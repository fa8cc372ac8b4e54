"""The heartbeats, outages and lobby counts in memory (stores.operations.RedisOperations's
twin)."""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable

from stores.operations import KEEP, gap_of


class MemoryOperations:
    """The twin: `listed(status)` counts the lobby's games (none by default)."""

    def __init__(self, listed: Callable[[str], int] | None = None) -> None:
        self._beats: dict[bool, tuple[float, str]] = {}
        self._outages: list[tuple[float, float]] = []  # by end, then start, as Redis orders
        self._listed = listed or (lambda status: 0)

    def beat(self, now: float, threshold: float, api: bool = False) -> tuple[float, float] | None:
        last = self._beats.get(api)
        if last is not None and now <= last[0]:
            return None
        self._beats[api] = (now, repr(now))
        if last is None or now - last[0] <= threshold:
            return None
        gap = gap_of(f"{last[1]}:{now!r}")
        insort(self._outages, gap, key=lambda g: (g[1], f"{g[0]!r}:{g[1]!r}"))
        del self._outages[:-KEEP]
        return gap

    def last_beat(self, api: bool = False) -> float | None:
        last = self._beats.get(api)
        return None if last is None else last[0]

    def outages_since(self, since: float) -> list[tuple[float, float]]:
        return [g for g in self._outages if g[1] >= since]

    def games_listed(self, status: str) -> int:
        return self._listed(status)

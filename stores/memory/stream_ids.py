"""Ids as a Redis stream gives them (`<ms>-<n>`, increasing), for the in-memory twins of
ports whose Redis adapters keep a stream (stores.chat, stores.moderation)."""

from __future__ import annotations

import time
from collections.abc import Callable


def order(entry_id: str) -> tuple[int, int]:
    """Return an id's place in a stream; an id without `-<n>` is its millisecond's first."""
    ms, _, n = entry_id.partition("-")
    return int(ms), int(n or 0)


def named(entry_id: str, wanted: str) -> bool:
    """True if `wanted` names `entry_id` as `XRANGE key wanted wanted` reads it: an id
    without `-<n>` names every id of its millisecond."""
    if "-" in wanted:
        return order(entry_id) == order(wanted)
    return order(entry_id)[0] == int(wanted)


class StreamIds:
    """The next ids of a stream, from `clock` (seconds, time.time unless given)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.last = (0, 0)

    def next(self) -> str:
        now = int(self.clock() * 1000)
        self.last = (now, 0) if now > self.last[0] else (self.last[0], self.last[1] + 1)
        return f"{self.last[0]}-{self.last[1]}"

"""The stream hub in memory (stores.hub.RedisHub's twin; tests/stores/test_hub_contract.py
runs both). It keeps no stream of its own: it reads the streams as the in-memory twins
that write them hold them, byte for byte as Redis would (its `sources`: the recorder's
logs and private logs, the chat, the players' feeds), each time a subscriber takes.

One thread, no reader: a subscription is handed nothing at subscribe and everything
after its place at each `take`. A `take` that finds nothing waits its timeout for its
`news`, unless a subscription sharing that event has entries waiting (on Redis their
reader would have set it): then it answers [] at once, as a woken loop does.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from stores.hub import Entry, position

Source = Callable[[str], list[Entry]]  # a stream's entries by key ([] if not kept there)


class MemorySubscription:
    def __init__(self, key: str, after: str, news: threading.Event | None):
        self.key, self.after = key, position(after)
        self.news = news or threading.Event()


class MemoryHub:
    def __init__(self, *sources: Source) -> None:
        self.sources = sources
        self.subs: set[MemorySubscription] = set()

    def _fresh(self, sub: MemorySubscription) -> list[Entry]:
        if sub not in self.subs:
            return []  # unsubscribed: handed nothing more
        held = [e for source in self.sources for e in source(sub.key)]
        return [e for e in held if position(e[0]) > sub.after]

    def subscribe(
        self, key: str, after: str, news: threading.Event | None = None
    ) -> tuple[MemorySubscription, list[Entry]]:
        sub = MemorySubscription(key, after, news)
        self.subs.add(sub)
        return sub, []

    def unsubscribe(self, key: str, sub: MemorySubscription) -> None:
        self.subs.discard(sub)

    def take(self, sub: MemorySubscription, timeout: float) -> list[Entry] | None:
        fresh = self._fresh(sub)
        if not fresh:
            if timeout <= 0:
                return []
            beside = (o for o in self.subs if o is not sub and o.news is sub.news)
            if not any(self._fresh(o) for o in beside) and not sub.news.wait(timeout):
                return []
        sub.news.clear()
        if fresh:
            sub.after = position(fresh[-1][0])
        return fresh

"""One reader per Redis stream per process, shared by every open event stream of it.

A game watched by fifteen clients through one API process costs one XREAD BLOCK there,
not fifteen: the reader hands each new entry to its subscribers' queues, and each
subscriber's own loop (api.streams.follow) sends it. A subscriber that starts behind
the reader (a resume with Last-Event-ID) first reads the gap itself, then takes over from
its queue; one that starts ahead of it skips what it has seen.

Threads and events here are the standard library's; under gunicorn's gevent workers they
are monkey-patched into greenlets and gevent events.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from typing import Any

import redis

logger = logging.getLogger(__name__)
Entry = tuple[bytes, dict[bytes, bytes]]
FAILED = object()  # put on the queues when the reader cannot go on


def position(entry_id: str | bytes) -> tuple[int, int]:
    """Order Redis stream ids ("12-0", b"1712345678901-3") as numbers."""
    text = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
    ms, _, seq = text.partition("-")
    return int(ms), int(seq or 0)


class Subscription:
    """One open stream's place in a reader: the batches of entries handed to it (a deque
    and an event: lighter than a queue when many streams wake at once)."""

    def __init__(self, after: str, news: threading.Event | None = None):
        self.after = position(after)
        self.batches: deque[Any] = deque()
        self.news = news or threading.Event()  # shared when one loop follows two streams

    def put(self, batch: Any) -> None:
        self.batches.append(batch)
        self.news.set()


class Reader:
    """Reads one Redis stream with XREAD BLOCK while it has subscribers."""

    def __init__(self, hub: Hub, key: str, after: str):
        self.hub, self.key, self.last = hub, key, after
        self.subs: set[Subscription] = set()

    def run(self) -> None:
        while True:
            try:
                answer = self.hub.client.xread(
                    {self.key: self.last}, count=200, block=self.hub.block_ms
                )
            except redis.RedisError:
                logger.warning("reading %s failed; its streams end", self.key, exc_info=True)
                with self.hub.lock:
                    self.hub.readers.pop(self.key, None)
                    for sub in self.subs:
                        sub.put(FAILED)
                return
            with self.hub.lock:
                for _, entries in answer or ():
                    for sub in self.subs:
                        sub.put(entries)
                    self.last = entries[-1][0].decode()
                if not self.subs:
                    del self.hub.readers[self.key]
                    return


class Hub:
    """The readers of one process, by Redis stream key."""

    def __init__(self, client: redis.Redis, block_s: float):
        self.client, self.block_ms = client, max(1, int(block_s * 1000))
        self.readers: dict[str, Reader] = {}
        self.lock = threading.Lock()

    def subscribe(
        self, key: str, after: str, news: threading.Event | None = None
    ) -> tuple[Subscription, list[Entry]]:
        """Follow `key` after id `after`: return the subscription and the entries between
        `after` and where the shared reader stands (read here, not by the reader). With
        `news`, the subscription wakes that event (one loop following two streams)."""
        sub = Subscription(after, news)
        with self.lock:
            reader = self.readers.get(key)
            start = reader is None
            if start:
                reader = self.readers[key] = Reader(self, key, after)
            reader.subs.add(sub)
            stands = reader.last
        if start:
            threading.Thread(target=reader.run, daemon=True, name=f"reader {key}").start()
            return sub, []
        if position(stands) <= sub.after:
            return sub, []
        gap = self.client.xrange(key, f"({after}", stands)
        if gap:
            sub.after = position(gap[-1][0])
        return sub, gap

    def unsubscribe(self, key: str, sub: Subscription) -> None:
        with self.lock:
            reader = self.readers.get(key)
            if reader is not None:
                reader.subs.discard(sub)

    def take(self, sub: Subscription, timeout: float) -> list[Entry] | None:
        """Wait up to `timeout` s for the subscription's next entries; [] on a timeout,
        None if its reader failed. Entries it has seen already are dropped. A `timeout`
        of 0 never waits: under gevent, even `Event.wait(0)` yields to the hub (a full turn
        of every runnable greenlet), and each woken stream looks at its chat that way."""
        if not sub.batches and (timeout <= 0 or not sub.news.wait(timeout)):
            return []
        sub.news.clear()
        got = []
        while sub.batches:
            batch = sub.batches.popleft()
            if batch is FAILED:
                return None
            got += batch
        fresh = [e for e in got if position(e[0]) > sub.after]
        if fresh:
            sub.after = position(fresh[-1][0])
        return fresh

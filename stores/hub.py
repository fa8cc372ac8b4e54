"""The stream hub's port (`StreamHub`): what an open event stream reads of a Redis stream
(a game's log, its chat, its private log, a player's feed), from an id on, as they are
appended; api.streams.follow runs each stream's loop on it. `RedisHub` keeps it on Redis,
stores.memory.hub.MemoryHub in memory (tests/stores/test_hub_contract.py runs both).

One reader per Redis stream per process, shared by every open event stream of it.

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
from typing import Any, NamedTuple, Protocol

import redis

logger = logging.getLogger(__name__)
Entry = tuple[bytes, dict[bytes, bytes]]
FAILED = object()  # put on the queues when the reader cannot go on


class Subscribed(Protocol):
    """What a subscription shows its caller: the event that wakes its loop (set when
    entries come, or from outside, e.g. at a shutdown)."""

    news: threading.Event


class StreamHub(Protocol):
    def subscribe(
        self, key: str, after: str, news: threading.Event | None = None
    ) -> tuple[Subscribed, list[Entry]]:
        """Follow stream `key` after id `after`: return the subscription and the entries
        it is handed at once (possibly none). Those and what `take` hands it later are
        every entry after `after`, in order, each once. With `news`, the subscription
        wakes that event (one loop following two streams)."""

    def unsubscribe(self, key: str, sub: Any) -> None:
        """Stop following: the subscription is handed nothing more."""

    def take(self, sub: Any, timeout: float) -> list[Entry] | None:
        """The subscription's next entries, waiting up to `timeout` s for some (0: no
        wait) unless its `news` is set; [] when none came, None if the stream cannot be
        read any more (the caller's client reconnects)."""


def position(entry_id: str | bytes) -> tuple[int, int]:
    """Order Redis stream ids ("12-0", b"1712345678901-3") as numbers."""
    text = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
    ms, _, seq = text.partition("-")
    return int(ms), int(seq or 0)


class Batch(NamedTuple):
    """Entries one read brought, with the positions of the first and last (computed once
    by the reader, not once per subscriber)."""

    first: tuple[int, int]
    last: tuple[int, int]
    entries: list[Entry]


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


def _entries(reply: Any) -> list[Entry]:
    """The entries of a raw XREAD reply for one stream (RESP2 or RESP3), as redis-py's
    client returns them: (id, {field: value})."""
    if not reply:
        return []
    streams = reply.values() if isinstance(reply, dict) else (s[1] for s in reply)
    out: list[Entry] = []
    for entries in streams:
        for entry_id, fields in entries:
            if isinstance(fields, dict):
                out.append((entry_id, fields))
            else:
                it = iter(fields or ())
                out.append((entry_id, dict(zip(it, it))))
    return out


class Reader:
    """Reads one Redis stream with XREAD BLOCK while it has subscribers, on a connection
    it keeps (a plain client's: lending and returning a pooled connection, with its
    readiness check, cost two to three times the read itself)."""

    def __init__(self, hub: RedisHub, key: str, after: str):
        self.hub, self.key, self.last = hub, key, after
        self.subs: set[Subscription] = set()
        self.conn: Any = None

    def _read(self) -> list[Entry]:
        hub = self.hub
        if hub.pool is None:  # a cluster: the client finds the key's node
            return self._read_by_client()
        if self.conn is None:
            self.conn = hub.pool.get_connection()
        try:
            self.conn.send_command(
                "XREAD", "COUNT", 200, "BLOCK", hub.block_ms, "STREAMS", self.key, self.last
            )
            return _entries(self.conn.read_response())
        except (redis.ConnectionError, redis.TimeoutError):
            # as before, one read through the client, with its retries (e.g. a failover)
            self._let_go(broken=True)
            return self._read_by_client()

    def _read_by_client(self) -> list[Entry]:
        """One XREAD BLOCK through the client (its pool, node routing and retries)."""
        hub = self.hub
        answer = hub.client.xread({self.key: self.last}, count=200, block=hub.block_ms)
        return [e for _, entries in answer or () for e in entries]

    def _let_go(self, broken: bool = False) -> None:
        conn, self.conn = self.conn, None
        if conn is None or self.hub.pool is None:
            return
        if broken:
            conn.disconnect()
        self.hub.pool.release(conn)

    def run(self) -> None:
        try:
            self._run()
        finally:
            self._let_go()

    def _run(self) -> None:
        while True:
            try:
                entries = self._read()
            except redis.RedisError:
                logger.warning("reading %s failed; its streams end", self.key, exc_info=True)
                self._let_go(broken=True)
                with self.hub.lock:
                    self.hub.readers.pop(self.key, None)
                    for sub in self.subs:
                        sub.put(FAILED)
                return
            with self.hub.lock:
                if entries:
                    batch = Batch(position(entries[0][0]), position(entries[-1][0]), entries)
                    for sub in self.subs:
                        sub.put(batch)
                    self.last = entries[-1][0].decode()
                if not self.subs:
                    del self.hub.readers[self.key]
                    return


class RedisHub:
    """The readers of one process, by Redis stream key."""

    def __init__(self, client: redis.Redis, block_s: float):
        self.client, self.block_ms = client, max(1, int(block_s * 1000))
        # a plain client's pool, whose connections the readers keep (None: a cluster)
        self.pool = getattr(client, "connection_pool", None)
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
        fresh: list[Entry] = []
        while sub.batches:
            batch = sub.batches.popleft()
            if batch is FAILED:
                return None
            if batch.last <= sub.after:
                continue  # seen already (read in its gap)
            if batch.first > sub.after:
                fresh += batch.entries
            else:
                fresh += [e for e in batch.entries if position(e[0]) > sub.after]
            sub.after = batch.last
        return fresh

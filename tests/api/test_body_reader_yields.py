"""A large body that is already in the socket's buffer never holds a serving process's
loop for the whole read (#49.6): reading it lets other greenlets (another request,
`/healthz`) run after every MiB. Before, a fast client's 16 MiB bundle, or one chunked
in 4 KiB pieces, was read in one go while every other request of the process waited
(the figures: bench/reliability/abuse.py, docs/performance.md "The mixed hostile load")."""

from __future__ import annotations

import io

import gevent
from gevent import Timeout

from api.uploads import read_whole


class Buffered(io.BytesIO):
    """A body whose bytes are all there: a read never waits (no greenlet switch)."""


def test_reading_a_large_buffered_body_lets_other_greenlets_run():
    size = 16 * 1024 * 1024
    body = Buffered(b"[" * size)
    ran_during: list[int] = []
    read = {"done": False}

    def other() -> None:  # another request of the process: it runs whenever it may
        while not read["done"]:
            ran_during.append(1)
            gevent.sleep(0)

    watcher = gevent.spawn(other)
    gevent.sleep(0)  # it is waiting for its turn
    ran_during.clear()
    data = read_whole(body, size + 1, 60, Timeout)
    read["done"] = True
    watcher.join()
    assert len(data) == size
    assert len(ran_during) >= 15, f"the other greenlet ran {len(ran_during)} times in the read"

"""The shared readers of open event streams (stores.hub.RedisHub) on a real Redis: what a
subscriber is handed, and that a reader goes on when Redis drops its connection."""

from __future__ import annotations

import time

from service.bootstrap import client
from stores.hub import RedisHub


def _hub(redis_url: str) -> RedisHub:
    return RedisHub(client(redis_url, blocking=False, socket_timeout=5, max_connections=100), 0.2)


def _take(hub: RedisHub, sub, want: int) -> list:
    got, ends = [], time.monotonic() + 5
    while len(got) < want and time.monotonic() < ends:
        more = hub.take(sub, 0.5)
        assert more is not None, "the reader failed"
        got += more
    return got


def test_subscribers_get_each_new_entry_once_with_its_fields(redis_url, r):
    hub = _hub(redis_url)
    r.xadd("s", {"e": "one"}, id="1-0")
    first, _ = hub.subscribe("s", "1-0")
    r.xadd("s", {"e": "two", "o": "[]"}, id="2-0")
    assert _take(hub, first, 1) == [(b"2-0", {b"e": b"two", b"o": b"[]"})]
    late, gap = hub.subscribe("s", "0-0")  # behind the reader: reads its gap itself
    assert [entry_id for entry_id, _ in gap] == [b"1-0", b"2-0"]
    r.xadd("s", {"e": "three"}, id="3-0")
    assert [e for e, _ in _take(hub, first, 1)] == [b"3-0"]
    assert [e for e, _ in _take(hub, late, 1)] == [b"3-0"]  # nothing of its gap again
    hub.unsubscribe("s", first)
    hub.unsubscribe("s", late)


def test_a_reader_goes_on_when_redis_drops_its_connection(redis_url, r):
    hub = _hub(redis_url)
    sub, _ = hub.subscribe("s", "0-0")
    r.xadd("s", {"e": "one"}, id="1-0")
    assert [e for e, _ in _take(hub, sub, 1)] == [b"1-0"]
    time.sleep(0.1)  # the reader is blocked in its next XREAD
    ends = time.monotonic() + 5
    while True:  # readers of earlier tests end within one BLOCK once nobody follows them
        blocked = [c["id"] for c in r.client_list() if "b" in c["flags"]]
        if len(blocked) == 1 or time.monotonic() > ends:
            break
        time.sleep(0.05)
    assert len(blocked) == 1  # the reader's connection, waiting in its XREAD BLOCK
    assert r.client_kill_filter(_id=blocked[0]) == 1
    r.xadd("s", {"e": "two"}, id="2-0")
    r.xadd("s", {"e": "three"}, id="3-0")
    assert [e for e, _ in _take(hub, sub, 2)] == [b"2-0", b"3-0"]
    hub.unsubscribe("s", sub)


def test_a_reader_keeps_one_connection_while_it_reads(redis_url, r):
    hub = _hub(redis_url)
    sub, _ = hub.subscribe("s", "0-0")
    for n in range(1, 21):
        r.xadd("s", {"e": str(n)}, id=f"{n}-0")
        assert len(_take(hub, sub, 1)) == 1
    pool = hub.client.connection_pool
    assert len(pool._available_connections) + len(pool._in_use_connections) == 1
    hub.unsubscribe("s", sub)
    r.xadd("s", {"e": "last"}, id="21-0")  # wakes the reader, which has nobody left
    ends = time.monotonic() + 5
    while hub.readers and time.monotonic() < ends:
        time.sleep(0.05)
    assert not hub.readers and len(pool._in_use_connections) == 0  # handed back

"""The open streams' store (stores.stream_slots), on Redis and in memory alike: a cap per
caller, streams whose time ran out (given as data) no longer count, a refresh that tells
whether the stream's token still exists."""

import pytest

from events import keys
from stores.memory.stream_slots import MemoryStreamSlots
from stores.stream_slots import RedisStreamSlots


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def sides(request):
    """(the store, a function that makes a token exist)."""
    if request.param == "memory":
        known: set[str] = set()
        return MemoryStreamSlots(token_exists=known.__contains__), known.add
    r = request.getfixturevalue("r")
    return RedisStreamSlots(r), lambda digest: r.hset(keys.token(digest), "player", "p1")


def test_a_caller_opens_at_most_its_cap_and_a_closed_or_lapsed_stream_frees_a_place(sides):
    slots, _ = sides
    now = 10_000_000_000_000  # ms, far ahead of the server's clock (the key's time to live)
    assert slots.open("ann", "s1", now, 5_000, cap=2)
    assert slots.open("ann", "s2", now, 5_000, cap=2)
    assert not slots.open("ann", "s3", now, 5_000, cap=2)
    assert slots.open("bob", "s4", now, 5_000, cap=2)  # each caller its own cap
    slots.close("ann", "s1")
    assert slots.open("ann", "s3", now, 5_000, cap=2)
    assert not slots.open("ann", "s5", now + 4_000, 5_000, cap=2)
    assert slots.open("ann", "s5", now + 5_000, 5_000, cap=2)  # s2 and s3 lapsed


def test_a_refresh_keeps_a_stream_counted_while_its_token_exists(sides):
    slots, make_token = sides
    now = 10_000_000_000_000
    slots.open("ann", "s1", now, 5_000, cap=1)
    make_token("d1")
    assert slots.refresh("ann", "s1", now + 10_000, 5_000, "d1")
    assert not slots.open("ann", "s2", now + 6_000, 5_000, cap=1)  # s1 counts still
    assert not slots.refresh("ann", "s1", now + 10_000, 5_000, "revoked")
    assert slots.refresh("ann", "s1", now + 10_000, 5_000, None)

"""The moderation's contract (stores.moderation), run on Redis and in memory alike:
reports kept newest first with increasing ids, each closed once, and what is set against
a player (muted, banned) set and lifted one at a time."""

import pytest

from stores.memory.moderation import MemoryModeration
from stores.memory.stream_ids import order
from stores.moderation import RedisModeration


# the Redis one is marked `process`, so only the in-memory one is in the unit tier
@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def store(request):
    if request.param == "memory":
        return MemoryModeration()
    return RedisModeration(request.getfixturevalue("r"))


def test_reports_are_read_newest_first_with_increasing_ids(store):
    assert store.reports(10) == []
    ids = [store.add_report({"by": "p_1", "player": "p_2", "reason": f"r{i}"}) for i in range(3)]
    assert ids == sorted(ids, key=order) and len(set(ids)) == 3
    assert store.reports(10) == [
        (ids[2], {"by": "p_1", "player": "p_2", "reason": "r2"}),
        (ids[1], {"by": "p_1", "player": "p_2", "reason": "r1"}),
        (ids[0], {"by": "p_1", "player": "p_2", "reason": "r0"}),
    ]
    assert [i for i, _ in store.reports(2)] == [ids[2], ids[1]]
    assert store.has_report(ids[1])
    assert not store.has_report("1-0")


def test_a_report_is_closed_once(store):
    rid = store.add_report({"reason": "spam"})
    assert store.closed() == {}
    assert store.close_report(rid, {"by": "p_op", "note": "done", "at": "t1"})
    assert not store.close_report(rid, {"by": "p_op2", "note": "again", "at": "t2"})
    assert store.closed() == {rid: {"by": "p_op", "note": "done", "at": "t1"}}


def test_a_mute_and_a_ban_are_set_and_lifted_apart(store):
    assert store.standing("p_1") == {}
    store.set_standing("p_1", "muted", {"by": "p_op", "reason": "rude", "at": "t1"})
    store.set_standing("p_1", "banned", {"by": "p_op", "reason": "cheat", "at": "t2"})
    assert store.standing("p_1") == {
        "muted": {"by": "p_op", "reason": "rude", "at": "t1"},
        "banned": {"by": "p_op", "reason": "cheat", "at": "t2"},
    }
    assert store.standing("p_2") == {}
    store.set_standing("p_1", "muted", None)
    assert store.standing("p_1") == {"banned": {"by": "p_op", "reason": "cheat", "at": "t2"}}
    store.set_standing("p_1", "banned", None)
    store.set_standing("p_1", "banned", None)  # lifting twice is no error
    assert store.standing("p_1") == {}

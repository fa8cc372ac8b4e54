"""The operations store's contract (stores/operations.py), on Redis and in memory alike:
a beat records the gap it ends as an outage once, the sweeper's and the API's heartbeats
are apart, and the outages read back oldest first from a time on."""

import pytest

from stores.memory.operations import MemoryOperations
from stores.operations import KEEP, RedisOperations


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def ops(request):
    if request.param == "memory":
        return MemoryOperations()
    return RedisOperations(request.getfixturevalue("r"))


def test_no_beat_yet_reads_as_never(ops):
    assert ops.last_beat() is None
    assert ops.last_beat(api=True) is None
    assert ops.outages_since(0) == []


def test_a_beat_after_a_gap_longer_than_the_threshold_records_one_outage(ops):
    assert ops.beat(1000.0, 15) is None  # the first beat: nothing to compare with
    assert ops.beat(1010.0, 15) is None  # 10 s: no outage
    assert ops.beat(1100.5, 15) == (1010.0, 1100.5)
    assert ops.last_beat() == 1100.5
    assert ops.outages_since(0) == [(1010.0, 1100.5)]


def test_a_beat_not_after_the_last_changes_nothing(ops):
    ops.beat(1000.0, 15)
    ops.beat(1100.0, 15)
    assert ops.beat(1100.0, 15) is None  # a second worker back at the same instant
    assert ops.beat(1050.0, 15) is None  # a late, older beat
    assert ops.last_beat() == 1100.0
    assert ops.outages_since(0) == [(1000.0, 1100.0)]


def test_the_api_beats_apart_from_the_sweeper_into_the_same_outages(ops):
    ops.beat(1000.0, 15)
    ops.beat(1000.0, 1.5, api=True)
    assert ops.beat(1004.0, 1.5, api=True) == (1000.0, 1004.0)  # the API's gap alone
    assert ops.last_beat() == 1000.0
    assert ops.last_beat(api=True) == 1004.0
    assert ops.beat(1030.0, 15) == (1000.0, 1030.0)
    assert ops.outages_since(0) == [(1000.0, 1004.0), (1000.0, 1030.0)]  # by their end


def test_outages_are_read_from_the_end_on(ops):
    for now in (100.0, 200.0, 300.0, 400.0):
        ops.beat(now, 15)
    assert ops.outages_since(250.0) == [(200.0, 300.0), (300.0, 400.0)]
    assert ops.outages_since(300.0) == [(200.0, 300.0), (300.0, 400.0)]  # ended at `since`
    assert ops.outages_since(401.0) == []


def test_only_the_newest_outages_are_kept(ops):
    for i in range(KEEP + 3):
        ops.beat(100.0 * i, 15)
    kept = ops.outages_since(0)
    assert len(kept) == KEEP
    assert kept[0] == (200.0, 300.0) and kept[-1] == (100.0 * (KEEP + 1), 100.0 * (KEEP + 2))


def test_no_game_listed_counts_zero(ops):
    assert [ops.games_listed(s) for s in ("waiting", "active", "finished")] == [0, 0, 0]

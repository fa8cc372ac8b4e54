"""The counters' store (stores.limits), on Redis and in memory alike: calls counted in a
window that the first call starts, one sweeper's turn per period, and a request's first
round trip (its token's record, its count, its game's load)."""

import pytest

from events import keys
from events.memory_recorder import MemoryRecorder
from events.recorder import RedisRecorder
from events.repository import GameRepository
from stores.limits import RedisLimits
from stores.memory.limits import MemoryLimits


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def limits(request):
    """Counters whose first trips know one token, of digest `d1`, by its record `rec1`."""
    if request.param == "memory":
        known = {"d1": b"rec1"}
        return MemoryLimits(GameRepository(MemoryRecorder()), token_record=known.get)
    r = request.getfixturevalue("r")
    r.set(keys.token("d1"), b"rec1")
    return RedisLimits(r, GameRepository(RedisRecorder(r)))


def test_calls_are_counted_in_a_window_the_first_one_starts(limits):
    calls, left_ms = limits.count("c1", 60)
    assert calls == 1 and 59_000 < left_ms <= 60_000
    assert limits.count("c1", 60)[0] == 2
    assert limits.count("c1", 60, quick=True)[0] == 3
    assert limits.count("c2", 60)[0] == 1  # each counter its own


def test_one_sweeper_takes_the_turn_per_period(limits):
    assert limits.take_sweep_turn(60)
    assert not limits.take_sweep_turn(60)


def test_a_first_trip_reads_the_token_counts_the_call_and_loads_the_game(limits):
    limits.games.load("g_none")  # a Redis that never ran the load's script reads none
    trip = limits.first_trip("d1", "c1", 60, "g_none", quick=False)
    assert (trip.token, trip.calls) == (b"rec1", 1) and 59_000 < trip.left_ms <= 60_000
    assert trip.game is not None and trip.game().record.version == 0  # no such game yet
    again = limits.first_trip("d2", "c1", 60, None, quick=True)
    assert (again.token, again.calls, again.game) == (None, 2, None)
    anonymous = limits.first_trip(None, "c2", 60, None, quick=False)
    assert (anonymous.token, anonymous.calls) == (None, 1)


def test_a_window_that_ended_starts_again():
    clock = [1000.0]
    limits = MemoryLimits(clock=lambda: clock[0])
    limits.count("c", 10)
    limits.count("c", 10)
    clock[0] += 10
    assert limits.count("c", 10) == (1, 10_000)
    assert limits.take_sweep_turn(5)
    clock[0] += 5
    assert limits.take_sweep_turn(5)

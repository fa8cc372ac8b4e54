"""The counters' store (stores.limits), on Redis and in memory alike: calls counted in a
window that the first call starts, and one sweeper's turn per period."""

import pytest

from stores.limits import RedisLimits
from stores.memory.limits import MemoryLimits


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def limits(request):
    if request.param == "memory":
        return MemoryLimits()
    return RedisLimits(request.getfixturevalue("r"))


def test_calls_are_counted_in_a_window_the_first_one_starts(limits):
    calls, left_ms = limits.count("c1", 60)
    assert calls == 1 and 59_000 < left_ms <= 60_000
    assert limits.count("c1", 60)[0] == 2
    assert limits.count("c1", 60)[0] == 3
    assert limits.count("c2", 60)[0] == 1  # each counter its own


def test_one_sweeper_takes_the_turn_per_period(limits):
    assert limits.take_sweep_turn(60)
    assert not limits.take_sweep_turn(60)


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

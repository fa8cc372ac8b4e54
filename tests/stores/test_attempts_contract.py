"""The refused attempts' store (stores.attempts), on Redis and in memory alike."""

import pytest

from stores.attempts import RedisAttempts
from stores.memory.attempts import MemoryAttempts


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def attempts(request):
    if request.param == "memory":
        return MemoryAttempts()
    return RedisAttempts(request.getfixturevalue("r"))


def test_the_newest_attempts_are_kept_newest_first(attempts):
    for n in range(5):
        attempts.keep("g1", {"n": n, "action": {"type": "bid"}}, most=3)
    assert attempts.newest("g1", 10) == [{"n": n, "action": {"type": "bid"}} for n in (4, 3, 2)]
    assert attempts.newest("g1", 1) == [{"n": 4, "action": {"type": "bid"}}]
    assert attempts.newest("g2", 10) == []

"""The key history store's contract (stores/key_history.py), on Redis and in memory
alike: each logged key's leaf index, and the key logged last."""

import pytest

from stores.key_history import RedisKeyHistory
from stores.memory.key_history import MemoryKeyHistory


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def history(request):
    if request.param == "memory":
        return MemoryKeyHistory()
    return RedisKeyHistory(request.getfixturevalue("r"))


def test_no_key_logged_yet(history):
    assert history.last_logged() is None
    assert history.leaves() == {}


def test_each_key_keeps_its_leaf_and_the_last_logged_is_named(history):
    history.logged("k1", 0)
    history.logged("k2", 7)
    assert history.last_logged() == "k2"
    assert history.leaves() == {"k1": 0, "k2": 7}
    history.logged("k1", 0)  # logged again by a process racing after a rotation
    assert history.last_logged() == "k1"
    assert history.leaves() == {"k1": 0, "k2": 7}

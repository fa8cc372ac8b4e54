"""The checkpoint store's contract (stores/checkpoints.py), on Redis and in memory alike:
one note kept per witness, replaced by the next, all read back."""

import pytest

from stores.checkpoints import RedisCheckpoints
from stores.memory.checkpoints import MemoryCheckpoints


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def checkpoints(request):
    if request.param == "memory":
        return MemoryCheckpoints()
    return RedisCheckpoints(request.getfixturevalue("r"))


def test_nothing_kept_yet(checkpoints):
    assert checkpoints.cosigned("w1") is None
    assert checkpoints.every_cosigned() == []


def test_one_note_per_witness_the_newest_kept(checkpoints):
    checkpoints.keep_cosigned("w1", "note 1\n\n— w1 a\n")
    checkpoints.keep_cosigned("w2", "note 1\n\n— w2 b\n")
    checkpoints.keep_cosigned("w1", "note 2\n\n— w1 c\n")
    assert checkpoints.cosigned("w1") == "note 2\n\n— w1 c\n"
    assert checkpoints.cosigned("w3") is None
    assert sorted(checkpoints.every_cosigned()) == ["note 1\n\n— w2 b\n", "note 2\n\n— w1 c\n"]

"""The public log's contract (events/tlog.py), on Redis and in memory alike
(events/memory_tlog.py): leaves logged once per id, a game append's leaf, texts, the
tree's roots and proofs, the kept head, the index's repair and the alarms."""

import pytest

from events import merkle
from events.memory_recorder import MemoryRecorder
from events.memory_tlog import MemoryPublicLog
from events.recorder import RedisRecorder
from events.recording import Append, Log, Writes
from events.tlog import PublicLog
from tests.events.recorders import envelopes


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def pair(request):
    if request.param == "memory":
        recorder = MemoryRecorder()
        return recorder, MemoryPublicLog(recorder.writes)
    client = request.getfixturevalue("r")
    return RedisRecorder(client), PublicLog(client)


def test_an_empty_log(pair):
    _, tlog = pair
    assert tlog.size() == 0
    assert tlog.indexed() == (0, 0)
    assert tlog.head() is None
    assert tlog.texts(0, 5) == []
    assert tlog.indexes(["g:created"]) == [None]
    assert tlog.alarms() == 0


def test_a_leaf_is_logged_once_per_id(pair):
    _, tlog = pair
    assert tlog.append("g1:created", "a") == 0
    assert tlog.append("g2:created", "b") == 1
    assert tlog.append("g1:created", "other text") == 0
    assert tlog.size() == 2
    assert tlog.texts(0, 2) == ["a", "b"]
    assert tlog.texts(1, 9) == ["b"]
    assert tlog.indexes(["g2:created", "g1:created", "g3:created"]) == [1, 0, None]


def test_a_game_appends_leaf_follows_the_append(pair):
    recorder, tlog = pair
    tlog.append("g0:created", "first")
    then = Writes()
    then.tlog("g1:created", "leaf of g1")
    recorder.append(Append(Log.game("g1"), envelopes(1, 1), 0, then=then))
    assert tlog.indexes(["g1:created"]) == [1]
    assert tlog.texts(1, 2) == ["leaf of g1"]


def test_roots_and_proofs_are_the_rfc_9162_trees(pair):
    _, tlog = pair
    texts = [f"leaf {i}" for i in range(5)]
    for i, text in enumerate(texts):
        tlog.append(f"g{i}:created", text)
    hashes = [merkle.leaf_hash(t.encode()) for t in texts]
    root3 = tlog.tree.root(3)
    assert tlog.tree.root(5) == merkle.Tree(lambda a, b: hashes[a:b]).root(5)
    path = tlog.tree.inclusion(4, 5)
    merkle.verify_inclusion(texts[4].encode(), 4, 5, path, tlog.tree.root(5))  # or raises
    proof = tlog.tree.consistency(3, 5)
    merkle.verify_consistency(3, 5, proof, root3, tlog.tree.root(5))
    with pytest.raises(ValueError):
        tlog.tree.root(6)


def test_the_head_kept_is_read_back(pair):
    _, tlog = pair
    tlog.keep_head({"size": 1, "root": "ab"})
    tlog.keep_head({"size": 2, "root": "cd"})
    assert tlog.head() == {"size": 2, "root": "cd"}


def test_a_lost_index_entry_is_restored_once_and_alarms_are_kept_once(pair):
    _, tlog = pair
    tlog.append("g1:created", "a")
    assert tlog.restore("g1:created", 5) is False  # named already
    assert tlog.restore("g2:created", 0) is True
    assert tlog.indexed() == (1, 2)
    tlog.alarm("g1:created", 0, "2026-01-01T00:00:00.000Z", "lost")
    tlog.alarm("g1:created", 0, "2026-01-02T00:00:00.000Z", "lost")
    assert tlog.alarms() == 1
    assert tlog.alarmed(["g1:created", "g2:created"]) == [True, False]


def test_entries_past_the_end_are_removed_from_the_index(pair):
    _, tlog = pair
    tlog.append("g1:created", "a")
    tlog.restore("g9:created", 3)
    assert tlog.past_end() == [("g9:created", 3)]
    assert tlog.indexes(["g9:created", "g1:created"]) == [None, 0]
    assert tlog.past_end() == []

"""The game index's contract (stores/game_index.py), on Redis and in memory alike: every
stored game once, in batches, counted; the lobby's summaries read in order."""

import json

import pytest

from events import keys
from stores.game_index import RedisGameIndex
from stores.memory.game_index import MemoryGameIndex


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def index(request):
    """The index and how the lobby keeps a summary beside it (its own write)."""
    if request.param == "memory":
        twin = MemoryGameIndex()
        return twin, twin.summarize
    client = request.getfixturevalue("r")

    def summarize(game_id, summary):
        client.hset(keys.lobby_summaries(), game_id, json.dumps(summary))

    return RedisGameIndex(client), summarize


def test_nothing_stored_yet(index):
    games, _ = index
    assert games.count() == 0
    assert list(games.every(10)) == []
    assert games.summaries([]) == []
    assert games.summarized() == 0


def test_every_game_is_listed_once_in_batches(index):
    games, _ = index
    for i in range(7):
        games.register(f"g{i}", 100.0 + i)
    games.register("g3", 999.0)  # registered again: still one
    batches = list(games.every(3))
    assert all(1 <= len(b) <= 3 for b in batches)
    assert sorted(g for b in batches for g in b) == [f"g{i}" for i in range(7)]
    assert games.count() == 7


def test_summaries_are_read_in_order(index):
    games, summarize = index
    summarize("g1", {"status": "active", "version": 2})
    summarize("g2", {"status": "finished", "version": 9})
    assert games.summaries(["g2", "gx", "g1"]) == [
        {"status": "finished", "version": 9},
        None,
        {"status": "active", "version": 2},
    ]
    assert games.summarized() == 2

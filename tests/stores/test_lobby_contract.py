"""The lobby's store (stores.lobby), on Redis and in memory alike: the newest summary of
a game wins, a game is filed under its status and ruleset (an unlisted one under none),
pages read newest first from a place, a player's games as the appends wrote them."""

import pytest

from events import keys
from events.recording import Writes
from stores.lobby import RedisLobby
from stores.memory.lobby import MemoryLobby
from tests.stores.following import store_and_recorder


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def sides(request):
    """(the lobby, the recorder whose follow-up writes keep the players' indexes)."""
    return store_and_recorder(request, MemoryLobby, RedisLobby)


@pytest.fixture
def lobby(sides):
    return sides[0]


def summary(game_id, version, status="waiting", ruleset="goblin-market"):
    return {"id": game_id, "version": version, "status": status, "ruleset": ruleset}


def test_the_newest_version_of_a_summary_wins_whatever_the_order(lobby):
    assert lobby.index("g1", 3, summary("g1", 3, "active"), "active", 10)
    assert not lobby.index("g1", 2, summary("g1", 2), "waiting", 10)
    assert not lobby.index("g1", 3, summary("g1", 3), "waiting", 10)
    assert lobby.summaries(["g1", "nope"]) == [summary("g1", 3, "active"), None]
    assert lobby.newest(("status", "waiting"), float("inf"), 0, 10) == []
    assert lobby.newest(("status", "active"), float("inf"), 0, 10) == [("g1", 10.0)]


def test_a_game_moves_between_statuses_and_an_unlisted_one_is_in_no_list(lobby):
    lobby.index("g1", 1, summary("g1", 1), "waiting", 10)
    lobby.index("g2", 1, summary("g2", 1, ruleset="gobcon"), "waiting", 20)
    lobby.index("g1", 2, summary("g1", 2, "active"), "active", 10)
    lobby.index("g2", 2, summary("g2", 2, ruleset="gobcon"), "unlisted", 20)
    assert lobby.newest(("status", "waiting"), float("inf"), 0, 10) == []
    assert lobby.newest(("status", "all"), float("inf"), 0, 10) == [("g1", 10.0)]
    assert lobby.newest(("ruleset", "gobcon"), float("inf"), 0, 10) == []
    assert lobby.summaries(["g2"])[0]["version"] == 2  # its players' lists still show it
    assert lobby.active() == ["g1"]
    lobby.index("g1", 3, summary("g1", 3, "cancelled"), "cancelled", 10)
    assert lobby.newest(("status", "all"), float("inf"), 0, 10) == [] and lobby.active() == []


def test_a_page_reads_newest_first_from_its_place(lobby):
    for i, ms in enumerate([10, 20, 20, 30, 40]):
        lobby.index(f"g{i}", 1, summary(f"g{i}", 1), "waiting", ms)
    everything = lobby.newest(("ruleset", "goblin-market"), float("inf"), 0, 10)
    assert [ms for _, ms in everything] == [40.0, 30.0, 20.0, 20.0, 10.0]
    assert lobby.newest(("status", "waiting"), float("inf"), 1, 2) == everything[1:3]
    assert lobby.newest(("status", "all"), 20, 1, 10) == everything[3:]
    assert lobby.active() == []


def test_a_players_games_are_those_the_appends_wrote(sides):
    lobby, recorder = sides
    lobby.index("g1", 1, summary("g1", 1), "waiting", 10)
    then = Writes()
    then.zadd(keys.player_history("ann"), {"g1": 10, "g2": 5})
    then.zrem(keys.player_history("ann"), "g2")
    recorder.write(then)
    assert lobby.newest(("player", "ann"), float("inf"), 0, 10) == [("g1", 10.0)]
    assert lobby.newest(("player", "bob"), float("inf"), 0, 10) == []


def test_the_cursor_key_is_drawn_once(lobby):
    key = lobby.cursor_key()
    assert len(key) == 32 and lobby.cursor_key() == key == lobby.cursor_key(again=True)


def test_every_created_game_is_listed_once_in_batches(lobby):
    assert lobby.count() == 0 and list(lobby.every(10)) == []
    for i in range(7):
        lobby.register(f"g{i}", 100.0 + i)
    lobby.register("g3", 999.0)  # registered again: still one
    batches = list(lobby.every(3))
    assert all(1 <= len(b) <= 3 for b in batches)
    assert sorted(g for b in batches for g in b) == [f"g{i}" for i in range(7)]
    assert lobby.count() == 7


def test_the_summaries_kept_are_counted(lobby):
    assert lobby.summarized() == 0
    lobby.index("g1", 2, summary("g1", 2, "active"), "active", 10)
    lobby.index("g2", 1, summary("g2", 1), "unlisted", 20)
    lobby.index("g1", 3, summary("g1", 3, "finished"), "finished", 10)
    assert lobby.summarized() == 2

"""The tables' store (stores.tables), on Redis and in memory alike: a secret and a
rematch are named once, invitations read newest first from what the appends wrote, and a
player's own games."""

import pytest

from events import keys
from events.recording import Writes
from stores.memory.tables import MemoryTables
from stores.tables import RedisTables
from tests.stores.following import store_and_recorder


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def sides(request):
    """(the tables, the recorder whose follow-up writes keep the players' indexes)."""
    return store_and_recorder(request, MemoryTables, RedisTables)


@pytest.fixture
def tables(sides):
    return sides[0]


def test_a_games_secret_is_kept_once(tables):
    assert tables.secret("g1") is None
    assert tables.keep_secret("g1", "first") == "first"
    assert tables.keep_secret("g1", "second") == "first"
    assert tables.secret("g1") == "first"


def test_a_finished_games_rematch_is_named_once(tables):
    assert tables.rematch("g1") is None
    assert tables.link_rematch("g1", "g2")
    assert not tables.link_rematch("g1", "g3") and not tables.link_rematch("g1", "g2")
    assert tables.rematch("g1") == "g2"


def test_invitations_are_read_newest_first_and_dropped_one_by_one(sides):
    tables, recorder = sides
    then = Writes()
    then.zadd(keys.player_invitations("ann"), {"g1": 1.0, "g2": 3.0, "g3": 2.0})
    recorder.write(then)
    assert tables.invitations("ann", 10) == ["g2", "g3", "g1"]
    assert tables.invitations("ann", 2) == ["g2", "g3"]
    tables.drop_invitation("ann", "g3")
    assert tables.invitations("ann", 10) == ["g2", "g1"]
    assert tables.invitations("bob", 10) == []


def test_a_players_own_games_created_and_seated(sides):
    tables, recorder = sides
    tables.note_created("ann", "g2", 2.0)
    tables.note_created("ann", "g1", 1.0)
    then = Writes()
    then.zadd(keys.player_games("ann"), {"g9": 5.0})
    recorder.write(then)
    assert tables.own_games("ann") == (["g1", "g2"], ["g9"])
    tables.forget_created("ann", ["g1"])
    tables.forget_created("ann", [])
    assert tables.own_games("ann") == (["g2"], ["g9"])
    assert tables.own_games("bob") == ([], [])

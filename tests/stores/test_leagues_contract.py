"""The leagues store's contract (stores/leagues.py), on Redis and in memory alike: a
league is listed by its first append (newest first, a tie by id as Redis orders it),
the index pages by position, a member's seat commitment is held and replaced, and the
result an append stored under its idempotency key is read back."""

import pytest

from events.memory_recorder import MemoryRecorder
from events.recorder import RedisRecorder
from events.recording import Append, Log, Writes
from stores.leagues import RedisLeagues
from stores.memory.leagues import MemoryLeagues
from tests.events.recorders import envelopes


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def pair(request):
    if request.param == "memory":
        recorder = MemoryRecorder()
        return recorder, MemoryLeagues(recorder)
    client = request.getfixturevalue("r")
    return RedisRecorder(client), RedisLeagues(client)


def create(pair, league_id, created, idem=""):
    recorder, leagues = pair
    then = Writes()
    leagues.index_new(then, league_id, created)
    log = Log.league(league_id)
    recorder.append(Append(log, envelopes(1, 1), 0, idem=idem, result="1 1 digest", then=then))


def test_no_league_yet(pair):
    _, leagues = pair
    assert leagues.count() == 0
    assert leagues.newest(0, 10) == []
    assert leagues.position("nope") is None


def test_leagues_are_listed_by_their_first_append_newest_first(pair):
    _, leagues = pair
    for league_id, created in (("a", 10.0), ("b", 30.0), ("c", 20.0), ("d", 30.0)):
        create(pair, league_id, created)
    assert leagues.count() == 4
    assert leagues.newest(0, 10) == ["d", "b", "c", "a"]
    assert leagues.newest(1, 2) == ["b", "c"]
    assert leagues.newest(4, 2) == []
    assert [leagues.position(x) for x in ("d", "b", "c", "a")] == [0, 1, 2, 3]


def test_a_write_not_appended_lists_nothing(pair):
    _, leagues = pair
    leagues.index_new(Writes(), "never", 5.0)
    assert leagues.count() == 0


def test_the_result_stored_under_an_idempotency_key_is_read_back(pair):
    _, leagues = pair
    create(pair, "a", 1.0, idem="p1:k1")
    assert leagues.answered("a", "p1:k1") == "1 1 digest"
    assert leagues.answered("a", "p1:other") is None
    assert leagues.answered("b", "p1:k1") is None


def test_a_seat_commitment_is_held_per_member_and_replaced(pair):
    _, leagues = pair
    assert leagues.commitment("a", "p1") is None
    leagues.keep_commitment("a", "p1", "c1")
    leagues.keep_commitment("a", "p2", "c2")
    leagues.keep_commitment("a", "p1", "c3")
    assert [leagues.commitment("a", p) for p in ("p1", "p2", "p3")] == ["c3", "c2", None]
    assert leagues.commitment("b", "p1") is None

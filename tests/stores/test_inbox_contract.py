"""The inbox port's contract, on Redis and in memory alike (stores/inbox.py): notes
written outside an append and by an append's follow-up writes, read newest first by
page, after a feed id, or by id; read marks; the index of a player's unfinished games."""

import json

import pytest

from events import keys
from events.memory_recorder import MemoryRecorder
from events.recorder import RedisRecorder
from events.recording import Writes
from stores.inbox import SCAN, RedisInbox
from stores.memory.inbox import MemoryInbox


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def both(request):
    """(the inbox, the recorder whose appends' writes it sees)."""
    if request.param == "memory":
        recorder = MemoryRecorder()
        return MemoryInbox(follow=recorder.writes), recorder
    r = request.getfixturevalue("r")
    return RedisInbox(r), RedisRecorder(r)


def notes(player, *ids, games=()):
    writes = Writes()
    for nid in ids:
        text = json.dumps({"id": nid, "type": "game_started"})
        writes.xadd(keys.player_feed(player), {"n": text}, maxlen=1000, approximate=True)
    for game in games:
        writes.zadd(keys.player_games(player), {game: 1.0})
    return writes


def test_notes_read_newest_first_with_growing_feed_ids(both):
    inbox, _ = both
    inbox.write(notes("p1", "n1", "n2", "n3"))
    got = inbox.newest("p1")
    assert [n["id"] for _, n in got] == ["n3", "n2", "n1"]
    ids = [fid for fid, _ in got]
    assert ids == sorted(ids, key=lambda f: tuple(map(int, f.split("-"))), reverse=True)
    assert inbox.last_id("p1") == ids[0]
    assert inbox.newest("p2") == [] and inbox.last_id("p2") == "0-0"


def test_a_page_goes_on_before_a_feed_id_and_ends(both):
    inbox, _ = both
    inbox.write(notes("p1", "n1", "n2", "n3"))
    first = inbox.newest("p1", None, 2)
    assert [n["id"] for _, n in first] == ["n3", "n2"]
    rest = inbox.newest("p1", first[-1][0], 2)
    assert [n["id"] for _, n in rest] == ["n1"]
    assert inbox.newest("p1", rest[-1][0], 2) == []
    assert inbox.newest("p1", "0-0", 2) == []


def test_notes_since_a_feed_id_oldest_first(both):
    inbox, _ = both
    inbox.write(notes("p1", "n1", "n2", "n3"))
    first = inbox.since("p1")[0][0]
    assert [n["id"] for _, n in inbox.since("p1")] == ["n1", "n2", "n3"]
    assert [n["id"] for _, n in inbox.since("p1", first)] == ["n2", "n3"]


def test_a_note_found_by_id_even_beyond_the_newest_page(both):
    inbox, _ = both
    inbox.write(notes("p1", "old", *(f"n{i}" for i in range(SCAN + 5))))
    assert inbox.note("p1", "old") == {"id": "old", "type": "game_started"}
    assert inbox.note("p1", "n3")["id"] == "n3"
    assert inbox.note("p1", "nowhere") is None
    assert inbox.note("p2", "old") is None


def test_an_appends_follow_up_writes_reach_the_inbox(both):
    inbox, recorder = both
    recorder.write(notes("p1", "n1", games=["g1", "g2"]))
    assert [n["id"] for _, n in inbox.newest("p1")] == ["n1"]
    assert inbox.games("p1") == ["g1", "g2"]


def test_read_marks_one_by_one_and_all_up_to_a_feed_id(both):
    inbox, _ = both
    assert inbox.marks("p1") == ("0-0", set())
    inbox.write(notes("p1", "n1", "n2"))
    inbox.mark_read("p1", "n2")
    assert inbox.marks("p1") == ("0-0", {"n2"})
    upto = inbox.last_id("p1")
    inbox.mark_all_read("p1", upto)
    assert inbox.marks("p1") == (upto, set())
    inbox.mark_read("p1", "n3")
    inbox.mark_all_read("p1", None)  # nothing to mark: the mark stays, the ids go
    assert inbox.marks("p1") == (upto, set())
    assert inbox.marks("p2") == ("0-0", set())


def test_a_players_games_in_seat_order_and_a_missed_removal_dropped(both):
    inbox, _ = both
    writes = Writes()
    writes.zadd(keys.player_games("p1"), {"g2": 2.0, "g1": 1.0, "g3": 3.0})
    writes.zrem(keys.player_games("p1"), "g3")
    inbox.write(writes)
    assert inbox.games("p1") == ["g1", "g2"]
    inbox.drop_game("p1", "g1")
    assert inbox.games("p1") == ["g2"]
    assert inbox.games("p2") == []

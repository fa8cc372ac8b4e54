"""The inbox's use cases (service.inbox, service.notify.inbox) on in-memory ports (the
unit tier): what a player's notifications and turns show after a game's appends, read
marks, pages, and notes written outside an append."""

from __future__ import annotations

import pytest

from events import keys
from events.recording import Writes
from leagues.record import League
from service import inbox
from service.errors import NotFound
from service.notify import inbox as notes
from tests.service.test_use_cases_unit import seated
from tests.support.memory_boot import memory_boot

PLAYERS = ["ann", "bob", "cy"]


@pytest.fixture
def boot():
    boot = memory_boot()
    seated(boot, PLAYERS, timeout=3600)
    return boot


def kinds(boot, player, **ask):
    return [n["type"] for n in notes.page(boot, player, **ask)["notifications"]]


def test_a_started_game_tells_every_player_and_the_one_who_owes_its_turn(boot):
    owing = [p for p in PLAYERS if inbox.turns(boot, p)]
    assert len(owing) == 1
    (player,) = owing
    (turn,) = inbox.turns(boot, player)
    assert (turn["game"], turn["ruleset"], turn["deadline"] is not None) == (
        "g_unit",
        "goblin-market",
        True,
    )
    assert kinds(boot, player) == ["your_turn", "game_started"]
    for other in set(PLAYERS) - {player}:
        assert kinds(boot, other) == ["game_started"]
        assert notes.page(boot, other)["unread"] == 1


def test_one_read_then_all_read_and_a_later_note_unread(boot):
    page = notes.page(boot, "ann")
    nid = page["notifications"][0]["id"]
    notes.mark_read(boot, "ann", nid)
    page = notes.page(boot, "ann")
    assert page["notifications"][0]["read"] and page["unread"] == 0
    notes.emit(boot, "ann", {"type": "webhook_disabled", "webhook": "wh_1", "failures": 5})
    assert notes.page(boot, "ann")["unread"] == 1
    notes.mark_all_read(boot, "ann")
    assert notes.page(boot, "ann")["unread"] == 0
    later = notes.emit(boot, "ann", {"type": "webhook_disabled", "webhook": "wh_2"})
    assert notes.page(boot, "ann", unread_only=True)["notifications"][0]["id"] == later
    assert not notes.is_read(boot, "ann", later)
    assert notes.is_read(boot, "ann", nid, at_ms=0)  # read by the mark of all, not one by one
    assert not notes.is_read(boot, "ann", nid)


def test_marking_a_notification_the_player_has_not_is_refused(boot):
    with pytest.raises(NotFound) as refused:
        notes.mark_read(boot, "ann", "n_nowhere")
    assert refused.value.code == "notification_not_found"
    bobs = notes.page(boot, "bob")["notifications"][0]["id"]
    with pytest.raises(NotFound):
        notes.mark_read(boot, "ann", bobs)  # another player's


def test_pages_newest_first_with_a_next_until_the_end(boot):
    made = [
        notes.emit(boot, "bob", {"type": "webhook_disabled", "webhook": f"w{i}"}) for i in range(4)
    ]
    seen, before = [], None
    while True:
        page = notes.page(boot, "bob", before=before, limit=2)
        seen += [n["id"] for n in page["notifications"]]
        if (before := page["next"]) is None:
            break
    assert seen[:4] == made[::-1] and len(seen) == 5  # and the game_started note
    notes.mark_read(boot, "bob", made[1])
    assert made[1] not in [
        n["id"] for n in notes.page(boot, "bob", unread_only=True)["notifications"]
    ]


def test_a_note_emitted_twice_under_one_id_is_written_once(boot):
    first = notes.emit(boot, "cy", {"type": "webhook_disabled", "webhook": "w"}, note_id="n_once")
    again = notes.emit(boot, "cy", {"type": "webhook_disabled", "webhook": "w"}, note_id="n_once")
    assert first == again == "n_once"
    assert [n["id"] for n in notes.page(boot, "cy")["notifications"]].count("n_once") == 1
    assert notes.find(boot, "cy", "n_once")["webhook"] == "w"
    assert boot.notify_outbox.planned("notify|cy|n_once") is not None  # and its planning


def test_the_feed_follows_from_the_newest_note(boot):
    assert inbox.last_id(boot, "nobody") == "0-0"
    nid = notes.emit(boot, "ann", {"type": "webhook_disabled", "webhook": "w"})
    newest = notes.page(boot, "ann")["notifications"][0]
    assert newest["id"] == nid and inbox.last_id(boot, "ann") == newest["feed_id"]


def test_a_game_the_append_missed_removing_leaves_the_turns(boot):
    missed = Writes()
    missed.zadd(keys.player_games("ann"), {"g_gone": 1.0})  # a game never written
    boot.inbox.write(missed)
    assert "g_gone" in boot.inbox.games("ann")
    assert all(t["game"] != "g_gone" for t in inbox.turns(boot, "ann"))
    assert "g_gone" not in boot.inbox.games("ann")


def test_a_league_round_tells_its_tables_and_its_byes_at_once(boot):
    league = League("l_unit", settings={"ruleset": "goblin-market"}, members={"ann": "A"})
    started = {
        "type": "league.RoundStarted",
        "data": {
            "round": 2,
            "tables": [{"table": 1, "game": "g_l", "players": ["bob"]}],
            "byes": ["cy"],
        },
    }
    inbox.after_league_append(boot, league, [started])  # no append: written at once
    (told,) = [
        n["note"] for n in notes.page(boot, "bob")["notifications"] if n["type"] == "round_started"
    ]
    assert (told["game"], told["league"]) == ("g_l", {"id": "l_unit", "round": 2, "table": 1})
    (bye,) = [
        n["note"] for n in notes.page(boot, "cy")["notifications"] if n["type"] == "round_started"
    ]
    assert bye["game"] is None and bye["league"]["round"] == 2

"""Rematches on in-memory ports (the unit tier): the first former player's call makes
one unlisted game holding every former seat, each former player is told once, later
calls seat their caller in that same game, and a call that would answer with a game the
caller is not in is refused (service.lobby_commands)."""

from __future__ import annotations

import pytest

from events.seating import NotSeated
from service import game_commands, lobby_commands
from service.errors import Conflict
from service.notify import inbox as notes
from tests.service import league_setup
from tests.service.tables_setup import ANN, BOB, CY, started


def finished(boot) -> str:
    """A game of Ann, Bob and Cy that Bob and Cy resigned: finished."""
    gid = started(boot).game_id
    for quitter in (BOB, CY):
        game_commands.resign(boot, gid, quitter["id"])
    return gid


def rematch_notes(boot, player) -> list[dict]:
    shown = notes.page(boot, player["id"])["notifications"]
    return [n["note"] for n in shown if n["type"] == "rematch"]


def test_the_first_call_makes_the_rematch_and_the_next_ones_join_it(boot):
    old = finished(boot)
    new, created = lobby_commands.rematch(boot, old, ANN, {"reserve_s": 60})
    assert created and new.game_id != old
    assert (new.ruleset, new.players, new.unlisted) == ("goblin-market", 3, True)
    assert new.seat_of(ANN["id"]) is not None
    assert sorted(new.reserved()) == sorted([BOB["id"], CY["id"]])
    for player in (ANN, BOB, CY):  # every former seat is told, once
        assert [(n["game"], n["rematch_of"]) for n in rematch_notes(boot, player)] == [
            (new.game_id, old)
        ]
    again, created = lobby_commands.rematch(boot, old, BOB)
    assert not created and again.game_id == new.game_id
    assert again.seat_of(BOB["id"]) is not None
    same, created = lobby_commands.rematch(boot, old, ANN)  # already seated: as it is
    assert not created and same.game_id == new.game_id and same.version == again.version
    assert len(rematch_notes(boot, BOB)) == 1


def test_only_a_former_player_of_a_casual_game_asks_for_its_rematch(boot, monkeypatch):
    old = finished(boot)
    with pytest.raises(NotSeated):
        lobby_commands.rematch(boot, old, {"id": "p_dan", "name": "Dan"})
    assert boot.tables.rematch(old) is None  # nothing made for a stranger
    lid = league_setup.started(boot, monkeypatch)
    gid = league_setup.game_of(boot, lid)
    for quitter in ("m0", "m1"):
        game_commands.resign(boot, gid, quitter)
    with pytest.raises(Conflict) as refused:
        lobby_commands.rematch(boot, gid, {"id": "m2", "name": "M2"})
    assert refused.value.code == "league_game"


def test_a_rematch_gone_without_the_caller_is_refused_not_answered(boot):
    old = finished(boot)
    new, _ = lobby_commands.rematch(boot, old, ANN)
    lobby_commands.cancel(boot, new.game_id, ANN["id"])
    with pytest.raises(Conflict) as refused:
        lobby_commands.rematch(boot, old, BOB)
    assert refused.value.code == "rematch_gone"


def test_two_first_calls_at_once_make_one_rematch(boot):
    """Ann and Bob both find no rematch yet; Bob links his first. Ann's own game is
    cancelled, she is seated in Bob's, and nobody is told of hers."""
    old = finished(boot)
    link = boot.tables.link_rematch
    made: list[str] = []

    def bob_first(game_id, rematch_id):
        if not made:
            made.append(rematch_id)  # Ann's, not linked yet: Bob's call runs in between
            lobby_commands.rematch(boot, old, BOB)
        return link(game_id, rematch_id)

    boot.tables.link_rematch = bob_first
    rec, created = lobby_commands.rematch(boot, old, ANN)
    bobs = boot.tables.rematch(old)
    assert not created and rec.game_id == bobs != made[0]
    assert rec.seat_of(ANN["id"]) is not None and rec.seat_of(BOB["id"]) is not None
    assert boot.store.load(made[0]).record.status == "cancelled"
    for player in (ANN, BOB, CY):
        assert [n["game"] for n in rematch_notes(boot, player)] == [bobs]

"""Disputes and an organizer's rulings on in-memory ports (service.league_disputes): a
seated player opens one dispute per event, an organizer rules on the recorded game (the
standings follow; a replay opens a new game for the same table); refusals with codes."""

from __future__ import annotations

import pytest

from service import game_commands, league_commands, league_disputes, league_queries
from service.bootstrap import Bootstrap
from service.errors import Conflict, Forbidden, NotFound
from service.roles import MissingRole
from tests.service.league_setup import game_of, started


def recorded(boot: Bootstrap, monkeypatch) -> tuple[str, str]:
    lid = started(boot, monkeypatch)
    gid = game_of(boot, lid)
    for player in ("m0", "m1"):
        game_commands.resign(boot, gid, player)
    assert league_commands.record_result(boot, lid, gid) == "recorded"
    return lid, gid


def test_a_seated_player_opens_one_dispute_per_event(boot, monkeypatch):
    lid = started(boot, monkeypatch)
    gid = game_of(boot, lid)
    lg, opened = league_disputes.open_dispute(boot, lid, "m0", gid, None, "a bad default")
    assert opened["dispute"] == 1 and lg.disputes[1]["player"] == "m0"
    with pytest.raises(Conflict) as err:
        league_disputes.open_dispute(boot, lid, "m0", gid, None, "again")
    assert err.value.code == "already_disputed"
    with pytest.raises(Forbidden) as err:
        league_disputes.open_dispute(boot, lid, "zz", gid, None, "not mine")
    assert err.value.code == "not_seated"
    spec = {"game": gid, "kind": "annulled", "reason": "r", "dispute": 1}
    with pytest.raises(Conflict) as err:  # the game has no recorded result yet
        league_disputes.rule(boot, lid, "op", spec)
    assert err.value.code == "game_not_recorded"


def test_an_organizers_ruling_changes_the_standings_and_needs_an_organizer(boot, monkeypatch):
    lid, gid = recorded(boot, monkeypatch)
    league_disputes.open_dispute(boot, lid, "m2", gid, None, "they left me alone")
    spec = {"game": gid, "kind": "adjusted", "reason": "r", "dispute": 1, "points": {"m2": 3}}
    with pytest.raises(MissingRole):
        league_disputes.rule(boot, lid, "m2", spec)
    lg, ruling = league_disputes.rule(boot, lid, "op", spec)
    assert ruling["kind"] == "adjusted" and ruling["by"] == "op"
    assert league_disputes.counted(lg, gid)["m2"] == 3
    with pytest.raises(NotFound) as err:
        league_disputes.rule(boot, lid, "op", {**spec, "dispute": 9})
    assert err.value.code == "dispute_not_found"


def test_a_replay_ruling_opens_a_new_game_for_the_same_table(boot, monkeypatch):
    lid, gid = recorded(boot, monkeypatch)
    league_disputes.rule(boot, lid, "op", {"game": gid, "kind": "replay", "reason": "r"})
    lg = league_queries.load(boot, lid)
    replay = lg.replays[gid]
    rec = boot.store.load(replay).record
    assert rec.status == "active" and sorted(s.player for s in rec.seats) == ["m0", "m1", "m2"]
    with pytest.raises(Conflict) as err:
        league_disputes.rule(boot, lid, "op", {"game": gid, "kind": "annulled", "reason": "r"})
    assert err.value.code == "game_replayed"

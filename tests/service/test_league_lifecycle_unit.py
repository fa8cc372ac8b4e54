"""A league's lifecycle on in-memory ports (service.league_lifecycle): pausing stops the
rounds and the games' clocks, resuming starts them again, cancelling aborts the games,
a withdrawn member resigns from their games; each refused with its code when it cannot."""

from __future__ import annotations

import pytest

from service import league_lifecycle, league_queries, league_rounds
from service.errors import Conflict, NotFound
from tests.service.league_setup import game_of, later, league, started


def test_a_paused_league_starts_no_round_and_its_games_clocks_stop(boot, monkeypatch):
    lid = started(boot, monkeypatch)
    gid = game_of(boot, lid)
    lg = league_lifecycle.pause(boot, lid, "op")
    assert lg.paused and boot.store.load(gid).record.paused_at is not None
    with pytest.raises(Conflict) as err:
        league_lifecycle.pause(boot, lid, "op")
    assert err.value.code == "league_paused"
    later(monkeypatch, 120 + 3600)
    assert league_rounds.start_round(boot, lid, 2) == "paused"
    assert 2 not in league_queries.load(boot, lid).rounds
    lg = league_lifecycle.resume(boot, lid, "op")
    assert not lg.paused and boot.store.load(gid).record.paused_at is None
    assert ("league_round", lid, 2) in boot.scheduler.asked
    with pytest.raises(Conflict) as err:
        league_lifecycle.resume(boot, lid, "op")
    assert err.value.code == "league_not_paused"


def test_a_cancelled_league_aborts_its_games_and_refuses_what_follows(boot, monkeypatch):
    lid = started(boot, monkeypatch)
    gid = game_of(boot, lid)
    lg = league_lifecycle.cancel(boot, lid, "op")
    assert lg.cancelled and lg.status == "cancelled"
    rec = boot.store.load(gid).record
    assert rec.status == "finished" and rec.aborted  # ended, with no points
    assert league_rounds.start_round(boot, lid, 2) == "noop"
    for refused in (league_lifecycle.pause, league_lifecycle.cancel):
        with pytest.raises(Conflict) as err:
            refused(boot, lid, "op")
        assert err.value.code == "league_over"


def test_a_member_who_leaves_resigns_and_is_paired_no_more(boot, monkeypatch):
    lid = started(boot, monkeypatch, members=4)
    gid = game_of(boot, lid)
    lg = league_lifecycle.withdraw(boot, lid, "m1", "self")
    assert lg.withdrawn == {"m1": 2} and lg.why_withdrawn["m1"] == "left"
    rec = boot.store.load(gid).record
    seat = next(s.seat for s in rec.seats if s.player == "m1")
    assert seat in rec.resigned
    with pytest.raises(Conflict) as err:
        league_lifecycle.withdraw(boot, lid, "m1", "self")
    assert err.value.code == "already_withdrawn"
    with pytest.raises(NotFound) as err:
        league_lifecycle.withdraw(boot, lid, "nobody", "organizer", "op")
    assert err.value.code == "member_not_found"
    later(monkeypatch, 120 + 3600)
    assert league_rounds.start_round(boot, lid, 2) == "started"
    players = [p for t in league_queries.load(boot, lid).rounds[2].tables for p in t.players]
    assert sorted(players) == ["m0", "m2", "m3"]


def test_lifecycle_commands_on_an_unknown_league_are_not_found(boot):
    with pytest.raises(NotFound):
        league_lifecycle.pause(boot, "l_nope", "op")
    lid = league(boot)
    assert league_lifecycle.cancel(boot, lid, "op").status == "cancelled"

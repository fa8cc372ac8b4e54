"""A league's rounds on in-memory ports (service.league_rounds): a round starts once its
time has come, opens one game per table with the paired members seated, and schedules
the next round; too early, it is only scheduled again."""

from __future__ import annotations

import pytest

from service import league_queries, league_rounds
from tests.service.league_setup import game_of, later, league, started

pytestmark = pytest.mark.unit


def test_a_round_before_its_time_starts_nothing_and_is_scheduled_again(boot):
    lid = league(boot)
    boot.scheduler.asked.clear()
    assert league_rounds.start_round(boot, lid, 1) == "early"
    assert league_queries.load(boot, lid).rounds == {}
    assert boot.scheduler.asked == [("league_round", lid, 1)]


def test_a_round_opens_a_game_per_table_with_its_players_seated_once(boot, monkeypatch):
    lid = started(boot, monkeypatch, members=7)
    lg = league_queries.load(boot, lid)
    tables = lg.rounds[1].tables
    assert sorted(len(t.players) for t in tables) == [3, 4]
    assert sorted(p for t in tables for p in t.players) == [f"m{i}" for i in range(7)]
    for t in tables:
        rec = boot.store.load(t.game).record
        assert rec.status == "active" and rec.league["id"] == lid
        assert [s.player for s in rec.seats] == list(t.players)
    assert ("league_round", lid, 2) in boot.scheduler.asked
    assert league_rounds.start_round(boot, lid, 1) == "resumed"  # nothing new
    assert league_queries.load(boot, lid).rounds[1].tables == tables


def test_a_later_round_starts_the_missing_earlier_one_first(boot, monkeypatch):
    lid = league(boot)
    later(monkeypatch, 120 + 3600)
    assert league_rounds.start_round(boot, lid, 2) == "started"
    lg = league_queries.load(boot, lid)
    assert sorted(lg.rounds) == [1, 2] and game_of(boot, lid, 1) != game_of(boot, lid, 2)


def test_no_such_league_or_round(boot, monkeypatch):
    assert league_rounds.start_round(boot, "l_nope", 1) == "missing"
    lid = started(boot, monkeypatch)
    assert league_rounds.start_round(boot, lid, 3) == "noop"

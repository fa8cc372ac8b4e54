"""A finished league game's result and a member's vacation on in-memory ports
(service.league_commands.record_result, league_game_result, league_vacations): the result
goes into the standings once, and is asked of the worker as the game ends; a vacation
moves into the member's running game and is refused beyond the league's limit."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest

from service import game_commands, league_commands, league_queries, league_vacations
from service.bootstrap import Bootstrap
from service.errors import Conflict, Invalid
from tests.service.league_setup import game_of, started
from tests.support.memory_boot import memory_boot


@pytest.fixture
def boot() -> Bootstrap:
    return memory_boot()


def test_a_finished_games_result_goes_into_the_standings_once(boot, monkeypatch):
    lid = started(boot, monkeypatch)
    gid = game_of(boot, lid)
    assert league_commands.record_result(boot, lid, gid) == "not_finished"
    for player in ("m0", "m1"):  # two resign: the game ends
        game_commands.resign(boot, gid, player)
    assert boot.store.load(gid).record.status == "finished"
    assert ("league_result", lid, gid) in boot.scheduler.asked  # the worker's job
    assert league_commands.record_result(boot, lid, gid) == "recorded"
    lg = league_queries.load(boot, lid)
    places = lg.results[gid]["places"]
    assert sorted(p["player"] for p in places) == ["m0", "m1", "m2"]
    assert lg.games == {"m0": 1, "m1": 1, "m2": 1} and lg.results[gid]["round"] == 1
    assert league_commands.record_result(boot, lid, gid) == "noop"  # a repeat: nothing
    assert league_queries.load(boot, lid).version == lg.version
    assert league_commands.record_result(boot, "l_other", gid) == "not_finished"


def test_a_vacation_reaches_the_members_running_game_within_the_limit(boot, monkeypatch):
    lid = started(boot, monkeypatch)
    gid = game_of(boot, lid)
    now = datetime.fromtimestamp(time.time(), UTC)
    start, end = now + timedelta(hours=1), now + timedelta(days=2)
    lg = league_vacations.declare(boot, lid, "m1", start, end)
    assert len(lg.vacations["m1"]) == 1
    rec = boot.store.load(gid).record
    seat = next(s.seat for s in rec.seats if s.player == "m1")
    assert [a[0] for a in rec.away] == [seat]
    with pytest.raises(Conflict) as err:
        league_vacations.declare(boot, lid, "m2", start, now + timedelta(days=30))
    assert err.value.code == "vacation_limit"
    with pytest.raises(Invalid) as err:
        league_vacations.declare(boot, lid, "m2", end, start)
    assert "until" in err.value.errors

"""A finished league game's result and a member's vacation on in-memory ports
(service.league_commands.record_result, league_game_result, league_vacations): the result
goes into the standings once, and is asked of the worker as the game ends; a game played
to its scored end moves the standings by its places; a vacation moves into the member's
running game and is refused beyond the league's limit."""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime, timedelta

import pytest

from games import schemas
from service import (
    deadline_commands,
    game_commands,
    game_queries,
    league_commands,
    league_queries,
    league_vacations,
)
from service.bootstrap import Bootstrap
from service.errors import Conflict, Invalid
from tests.service.league_setup import game_of, started
from tests.support.memory_boot import memory_boot


@pytest.fixture
def boot() -> Bootstrap:
    return memory_boot(new_seed=lambda: b"g" * 32)  # the same deal every run


def play_out(boot: Bootstrap, gid: str, rnd: random.Random) -> None:
    """Play random legal moves through the use cases until the game ends, a sealed phase
    resolved as its worker would once all are in."""
    for n in range(2000):
        rec = boot.store.load(gid).record
        if rec.status != "active":
            return
        if (phase := rec.game.ready(rec.state)) is not None:
            deadline_commands.resolve(boot, gid, phase)
            continue
        player = rec.seats[rnd.choice(rec.owed()).seat].player
        _, specs = game_queries.legal(boot, gid, player)
        action = schemas.random_action(game_queries.shown_actions(specs), rnd)
        game_commands.act(boot, gid, player, action, f"move-{n}", None)
    raise AssertionError(f"{gid} did not end")


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


def test_a_game_played_to_its_scored_end_moves_the_standings_by_its_places(boot, monkeypatch):
    lid = started(boot, monkeypatch)
    gid = game_of(boot, lid)
    before = league_queries.standings(league_queries.load(boot, lid))
    assert {(r["points"], r["games"], r["rank"]) for r in before} == {(0, 0, 1)}
    play_out(boot, gid, random.Random(5))
    rec = boot.store.load(gid).record
    assert rec.result["reason"] == "completed" and not rec.result["resigned"]
    placed = {rec.seats[s["seat"]].player: s["place"] for s in rec.result["standings"]}
    assert sorted(placed.values()) == [1, 2, 3]  # no place shared in this deal
    assert ("league_result", lid, gid) in boot.scheduler.asked
    assert league_commands.record_result(boot, lid, gid) == "recorded"  # the worker's job
    lg = league_queries.load(boot, lid)
    assert {p["player"]: p["place"] for p in lg.results[gid]["places"]} == placed
    rows = league_queries.standings(lg)
    by_place = sorted(placed, key=placed.get)
    assert [r["player"] for r in rows] == by_place and [r["rank"] for r in rows] == [1, 2, 3]
    assert [r["points"] for r in rows] == lg.settings["points"][:3]  # 3, 2, 1 by default
    assert [(r["games"], r["wins"]) for r in rows] == [(1, 1), (1, 0), (1, 0)]
    assert rows[0]["mu"] > before[0]["mu"] > rows[-1]["mu"]  # the winner's rating rose
    assert league_commands.record_result(boot, lid, gid) == "noop"
    assert league_queries.standings(league_queries.load(boot, lid)) == rows


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

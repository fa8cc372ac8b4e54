"""A whole season on real workers: rounds start on time with no API process involved,
every game is created once, every member plays, results are recorded once, and
standings and ratings equal a recount. Killing workers mid-season changes nothing."""

from __future__ import annotations

import time
from pathlib import Path

from events import keys
from events.codec import parse_time
from leagues import pairing
from service import league_queries
from tests.api.helpers import new_players
from tests.conftest import kill_group
from tests.leagues.helpers import (
    Agent,
    assert_recount,
    in_seconds,
    new_league,
    operator,
    serve,
)
from tests.support.waiting import wait_for


def check_season(client, deps, lid: str, agents: list[Agent]) -> None:
    league = league_queries.load(deps, lid)
    s = league.settings
    assert league.status == "finished" and sorted(league.rounds) == list(range(1, s["rounds"] + 1))
    log = deps.store.read_stream(keys.league_events(lid))
    assert [e["data"]["round"] for e in log if e["type"] == "league.RoundStarted"] == sorted(
        league.rounds
    )  # each round started once
    expected = pairing.season(
        league.members, s["rounds"], s["seed"], s["table_min"], s["table_max"]
    )
    assert league.played() == expected  # exactly the schedule the seed gives
    for n, r in league.rounds.items():
        lateness = parse_time(r.started_at).timestamp() - league.due(n)
        assert lateness >= 0, (n, lateness)  # never early; how late: docs/leagues.md
    tables = [t for r in league.rounds.values() for t in r.tables]
    assert sorted(m.decode() for m in deps.redis.zrange(keys.games(), 0, -1)) == sorted(
        t.game for t in tables
    )
    assert len(list(deps.redis.scan_iter("mf:{g:*}:events"))) == len(tables)
    for t in tables:
        log = deps.store.read(t.game)
        assert [e["type"] for e in log].count("game.Created") == 1
        joined = [e["data"]["player"] for e in log if e["type"] == "game.PlayerJoined"]
        assert joined == list(t.players)
        acted = {e["command"]["player"] for e in log if e.get("command", {}).get("type") == "act"}
        assert acted == set(t.players), t.game  # every member at the table played
        assert not [e for e in log if e["type"] == "game.DecisionTimedOut"]
    for n, r in league.rounds.items():
        assert sorted(m for t in r.tables for m in t.players) == sorted(league.members)
    assert not [e for a in agents for e in a.errors]
    assert_recount(client, deps, lid)


def start_agents(base: str, players: list[dict]) -> list[Agent]:
    return [Agent(base, p, seed=i) for i, p in enumerate(players)]


def stop(agents: list[Agent]) -> None:
    for a in agents:
        a.stop.set()


def test_a_season_runs_on_the_workers_alone_and_standings_match_a_recount(
    client, app, redis_url, worker_process
):
    op = operator(client, app)
    players = new_players(client, 10, "m")
    lid = new_league(
        client,
        op,
        players,
        rounds=4,
        start_at=in_seconds(2.0),
        cadence_s=3,
        decision_timeout_s=30,
        table_size={"min": 3, "max": 4},
    )
    deps = app.extensions["marketfold"]
    worker_process()
    worker_process()
    # Nothing but the workers runs now: the first round opens on its own.
    wait_for(  # the round is logged first, then its games are opened
        lambda: (
            1 in (rounds := league_queries.load(deps, lid).rounds)
            and all(deps.store.exists(t.game) for t in rounds[1].tables)
        ),
        30,
    )
    base, server = serve(redis_url)  # for the members' bots only
    agents = start_agents(base, players)
    try:
        wait_for(lambda: league_queries.load(deps, lid).status == "finished", 90, every=0.5)
        check_season(client, deps, lid, agents)
        assert client.get(f"/v1/leagues/{lid}").get_json()["status"] == "finished"
    finally:
        stop(agents)
        server.terminate()
        server.wait(10)


def test_killing_and_restarting_workers_mid_season_changes_nothing(
    client, app, redis_url, worker_process, tmp_path
):
    op = operator(client, app)
    players = new_players(client, 6, "m")
    lid = new_league(
        client,
        op,
        players,
        rounds=3,
        start_at=in_seconds(1.5),
        cadence_s=6,  # round 2 not yet due when a loaded machine starts round 1 late
        decision_timeout_s=30,
        table_size=3,
    )
    deps = app.extensions["marketfold"]
    pause = Path(tmp_path / "pause")
    first = worker_process(pause=pause, MARKETFOLD_CLAIM_S="2")
    base, server = serve(redis_url)
    agents = start_agents(base, players)
    try:
        wait_for(lambda: 1 in league_queries.load(deps, lid).rounds, 30)
        pause.touch()  # the next job of the first worker stops just before its append
        wait_for(lambda: time.time() > league_queries.load(deps, lid).due(2) + 0.5, 30)
        kill_group(first)  # killed in the middle of a job (round 2, or a result)
        pause.unlink()
        assert 2 not in league_queries.load(deps, lid).rounds
        worker_process(MARKETFOLD_CLAIM_S="2")
        worker_process(MARKETFOLD_CLAIM_S="2")
        wait_for(lambda: league_queries.load(deps, lid).status == "finished", 90, every=0.5)
        check_season(client, deps, lid, agents)
    finally:
        stop(agents)
        server.terminate()
        server.wait(10)

"""A season that proves it (issue 16): four leagues at once, one per ruleset, 7 members
each, two of them absent (one replaced by a substitute in the first league) and one
resigning mid-game, through 3 rounds on real workers,
with the API and every worker stopped in the middle (one of them by kill -9) and Redis
itself stopped and restarted on its AOF while they are down.
Every game ends, every result is recorded once, standings and ratings equal a recount,
every game verifies, and no member is charged a timeout that fell inside the outage (of
the workers' heartbeat or the API's)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
import requests

from cli.compose import create_app
from cli.embedded import EmbeddedRedis, free_port
from events import audit, signature
from events.codec import parse_time
from events.fold import fold
from events.record import Record
from leagues import audit as league_audit
from service import league_queries
from stores.operations import RedisOperations
from tests.api.helpers import bearer, new_players
from tests.conftest import ROOT, TEST_CONFIG, _env, gunicorn_args, kill_group
from tests.leagues.helpers import Agent, assert_recount, in_seconds, new_league, operator
from tests.support.waiting import wait_for

RULESETS = {
    "goblin-market": {},
    "sorcerous-futures": {},
    "black-market": {},
    "gobcon": {"time_limit": 3},
}
TIMEOUT_S, CADENCE_S = 4, 15
# the service's settings, the API's too: one OUTAGE_AFTER_S for both heartbeats
WORKER_ENV = {"MARKETFOLD_OUTAGE_AFTER_S": "1", "MARKETFOLD_CLAIM_S": "2"}


def start_api(redis_url: str, port: int, operator_id: str) -> subprocess.Popen:
    env = {**_env(redis_url), **WORKER_ENV, "MARKETFOLD_OPERATORS": json.dumps([operator_id])}
    proc = subprocess.Popen([sys.executable, *gunicorn_args(port)], env=env, cwd=ROOT)
    wait_for(lambda: _up(port), 30)
    return proc


def _up(port: int) -> bool:
    try:
        return requests.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200
    except requests.RequestException:
        return False


def charged_inside(envelopes: list[dict], windows: list[tuple[float, float]], grace: float):
    """Return the timeouts whose deadline fell inside an outage or its grace window."""
    rec, out = Record(envelopes[0]["data"].get("game_id", "")), []
    for env in envelopes:
        if env["type"] == "game.DecisionTimedOut":
            deadline = rec.deadline(env["data"]["key"])
            due = parse_time(deadline).timestamp()
            if any(start < due < end + grace for start, end in windows):
                out.append((env["seq"], deadline))
        rec = fold(rec, env)
    return out


@pytest.fixture
def store(tmp_path):
    """A private Valkey (AOF, appendfsync everysec) the test stops and starts again on the
    same data and port; the session's Redis is never touched."""
    server = EmbeddedRedis(tmp_path / "valkey", port=free_port(), appendfsync="everysec").start()
    yield server
    server.kill()


# about 90 s on a quiet machine; over 300 s once beside the lab's 16 hosts (tests/lab)
@pytest.mark.timeout(600)
def test_a_season_of_every_ruleset_with_absences_a_resignation_and_an_outage(store, worker_process):
    redis_url = store.url
    app = create_app({**TEST_CONFIG, "REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url})
    client = app.test_client()
    env = {**WORKER_ENV, "REDIS_URL": redis_url}
    op = operator(client, app)
    deps = app.extensions["marketfold"]
    leagues: dict[str, tuple[list[dict], set[str], dict]] = {}
    for ruleset, options in RULESETS.items():
        members = new_players(client, 7, ruleset[:3])
        lid = new_league(
            client,
            op,
            members,
            ruleset=ruleset,
            options=options,
            rounds=3,
            start_at=in_seconds(3),
            cadence_s=CADENCE_S,
            decision_timeout_s=TIMEOUT_S,
            table_size=3,
            withdraw_after_timeouts=2,
        )
        first = client.get(f"/v1/leagues/{lid}").get_json()["schedule"][0]["tables"]
        small = next(t["players"] for t in first if len(t["players"]) == 3)
        resigner = next(m for m in members if m["id"] == small[2])
        leagues[lid] = (members, set(small[:2]), resigner)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    api = start_api(redis_url, port, op["id"])
    killed = worker_process(**env)
    stopped = worker_process(**env)
    agents = [
        Agent(base, m, seed=i)
        for members, absent, _ in leagues.values()
        for i, m in enumerate(members)
        if m["id"] not in absent
    ]
    try:
        # each resigner leaves its round-1 game as soon as it has made a move there, the four
        # leagues watched at once: the two absent members at that table are withdrawn (and
        # resign) after two timeouts each, which ends the game, so a resignation that waits
        # for the other leagues' resigners first can come too late on a loaded machine
        waiting = {lid: resigner for lid, (_, _, resigner) in leagues.items()}

        def resign_those_who_moved() -> bool:
            for lid, resigner in list(waiting.items()):
                gid = _game_of(deps, lid, 1, resigner["id"])
                if gid is None or not _moved(deps, gid, resigner["id"]):
                    continue
                res = requests.post(f"{base}/v1/games/{gid}/resign", headers=bearer(resigner))
                assert res.status_code == 200, (lid, res.text)
                del waiting[lid]
            return not waiting

        wait_for(resign_those_who_moved, 70, every=0.05)
        # in the first league, a substitute takes an absent member's place (its running game
        # and the rounds to come) before the outage
        sub_lid, substituted, substitute = _substitute(client, base, op, leagues)
        agents.append(Agent(base, substitute, seed=99))
        # the outage: round 2 under way everywhere, then the API and every worker stop
        wait_for(lambda: all(2 in league_queries.load(deps, lid).rounds for lid in leagues), 40)
        time.sleep(1)
        kill_group(killed)  # kill -9 in the middle of whatever it was doing
        api.terminate()  # and the rest stop as `marketfold serve` stops them
        api.wait(15)
        os.killpg(stopped.pid, signal.SIGTERM)
        stopped.wait(15)
        run_id = deps.redis.info("server")["run_id"]
        store.stop()  # and Redis restarts too (SIGTERM: its AOF is flushed), on the same data
        store.start()
        assert deps.redis.info("server")["run_id"] != run_id
        time.sleep(TIMEOUT_S + 1)  # deadlines fall due while nothing runs
        worker_process(**env)  # the workers come back first: players cannot act yet
        worker_process(**env)
        wait_for(lambda: RedisOperations(deps.redis).outages_since(0), 30)
        time.sleep(1)
        api = start_api(redis_url, port, op["id"])
        finished = lambda: all(  # noqa: E731
            league_queries.load(deps, lid).status == "finished" for lid in leagues
        )
        try:
            wait_for(finished, 300, every=0.5)  # about a minute on a quiet machine
        except AssertionError:
            raise AssertionError(_stuck(deps, leagues, agents)) from None
        windows = RedisOperations(deps.redis).outages_since(0)
        assert windows, "the workers' heartbeat did not see the outage"
        assert len(windows) >= 2, "the API's heartbeat did not see its outage"
        extended = 0
        for lid, (members, absent, resigner) in leagues.items():
            league = league_queries.load(deps, lid)
            assert_recount(client, deps, lid)
            for r in league.rounds.values():
                for t in r.tables:
                    log = deps.store.read(t.game)
                    assert log[-1]["type"] == "game.Ended"
                    assert [e["type"] for e in log].count("game.Ended") == 1
                    assert not charged_inside(log, windows, TIMEOUT_S), t.game
                    extended += sum(e["type"] == "game.DeadlineExtended" for e in log)
                    bundle = client.get(f"/v1/games/{t.game}/export").get_json()
                    assert audit.verify(bundle).ok, audit.verify(bundle).to_text()
            first = next(t for t in league.rounds[1].tables if resigner["id"] in t.players)
            result = client.get(f"/v1/games/{first.game}").get_json()["result"]
            seat = deps.store.load(first.game).record.seat_of(resigner["id"])
            assert seat in result["resigned"]
            assert result["reason"] in ("abandoned", "resigned")
        assert extended, "no deadline fell inside the outage: the test proved nothing"
        withdrawn = {p for lid in leagues for p in league_queries.load(deps, lid).withdrawn}
        assert withdrawn & {p for _, absent, _ in leagues.values() for p in absent}
        assert not [e for a in agents for e in a.errors]
        played = league_queries.load(deps, sub_lid)
        moved_by = {  # who made each move of the league's games
            (e.get("command") or {}).get("player")
            for r in played.rounds.values()
            for t in r.tables
            for e in deps.store.read(t.game)
            if (e.get("command") or {}).get("type") == "act"
        }
        assert substitute["id"] in moved_by  # the substitute played the seats it took
        assert substituted["id"] not in moved_by  # the absent member never did
        _dispute_and_rulings(base, op, leagues, substituted)
    finally:
        for a in agents:
            a.stop.set()
        api.terminate()
        api.wait(15)


def _substitute(client, base: str, op: dict, leagues: dict) -> tuple[str, dict, dict]:
    """The organizer puts a new player in the place of one absent member of the first
    league, by handle, while round 1 runs; return the league, the member, the substitute."""
    lid, (members, absent, _) = next(iter(leagues.items()))
    member = next(m for m in members if m["id"] in absent)
    (substitute,) = new_players(client, 1, "subst")
    client.patch("/v1/players/me", json={"handle": "seasonsub"}, headers=bearer(substitute))
    res = requests.post(
        f"{base}/v1/leagues/{lid}/substitutions",
        json={"player": member["id"], "substitute": "seasonsub"},
        headers=bearer(op),
    )
    assert res.status_code in (200, 201), res.text
    return lid, member, substitute


def _dispute_and_rulings(base: str, op: dict, leagues: dict, substituted: dict) -> None:
    """An absent member disputes a game, the organizer reviews one played through the
    outage (its audit and the outage on one page) and rules twice; the league's signed
    export recounts, with the rulings and the substitution, to the standings the API
    shows."""
    lid, (members, absent, resigner) = next(iter(leagues.items()))
    league = requests.get(f"{base}/v1/leagues/{lid}").json()
    tables = {n: s["tables"] for n, s in enumerate(league["schedule"], start=1)}
    who = next(m for m in members if m["id"] in absent and m is not substituted)
    theirs = next(t["game"] for t in tables[1] if who["id"] in t["players"])
    quit_ = next(t["game"] for t in tables[1] if resigner["id"] in t["players"])
    opened = requests.post(
        f"{base}/v1/leagues/{lid}/disputes",
        json={"game": theirs, "reason": "I was away for a week: my defaults lost it"},
        headers=bearer(who),
    )
    assert opened.status_code == 201, opened.text
    # each game's review audits it; those played through the outage show it on the same page
    # (in whichever league had a game running then: a quick table may end before it)
    reviews = []
    for each in leagues:
        schedule = requests.get(f"{base}/v1/leagues/{each}").json()["schedule"]
        reviews += [
            requests.get(
                f"{base}/v1/leagues/{each}/games/{t['game']}/review", headers=bearer(op)
            ).json()
            for r in schedule
            for t in r["tables"]
        ]
    assert all(r["audit"]["ok"] for r in reviews), reviews
    assert any(r["outages"] for r in reviews), "no game of the leagues shows the outage"
    rulings = [
        {"game": quit_, "kind": "forfeit", "players": [resigner["id"]], "reason": "left"},
        {
            "game": theirs,
            "kind": "adjusted",
            "points": {who["id"]: 1},
            "reason": "away",
            "dispute": opened.json()["dispute"],
        },
    ]
    for ruling in rulings:
        res = requests.post(f"{base}/v1/leagues/{lid}/rulings", json=ruling, headers=bearer(op))
        assert res.status_code == 201, res.text
    export = requests.get(f"{base}/v1/leagues/{lid}/export").json()
    trusted = signature.keyset(requests.get(f"{base}/v1/keys").json())
    report = league_audit.verify(export, trusted)
    assert report.ok, report.to_text()
    assert [r["kind"] for r in report.rulings] == ["forfeit", "adjusted"]
    shown = requests.get(f"{base}/v1/leagues/{lid}/standings").json()["standings"]
    assert report.standings == shown


def _game_of(deps, lid: str, number: int, player: str) -> str | None:
    rounds = league_queries.load(deps, lid).rounds
    if number not in rounds:
        return None
    gid = next(t.game for t in rounds[number].tables if player in t.players)
    return gid if deps.store.exists(gid) else None


def _moved(deps, gid: str, player: str) -> bool:
    return any(
        e.get("command", {}).get("type") == "act" and e["command"]["player"] == player
        for e in deps.store.read(gid)
    )


def _stuck(deps, leagues, agents) -> str:
    """Say why the season did not finish: the agents' errors, and who each unfinished
    game waits on."""
    lines = [f"agent error: {e!r}" for a in agents for e in a.errors]
    for lid in leagues:
        for r in league_queries.load(deps, lid).rounds.values():
            for t in r.tables:
                if deps.store.exists(t.game):
                    rec = deps.store.load(t.game).record
                    if rec.status != "finished":
                        who = {s.seat: s.player for s in rec.seats}
                        owed = [(o.key, _playing(agents, who[o.seat], t.game)) for o in rec.owed()]
                        lines.append(f"{t.game} at {rec.version} owes {owed}")
    return "the season did not finish:\n" + "\n".join(lines)


def _playing(agents, player: str, gid: str) -> str:
    """Say whether an agent plays `player`'s seat in `gid` now."""
    agent = next((a for a in agents if a.player["id"] == player), None)
    if agent is None:
        return f"{player}: absent"
    thread = agent.games.get(gid)
    if thread is None:
        return f"{player}: never told the game started"
    return f"{player}: {'playing' if thread.is_alive() else 'stopped'}"

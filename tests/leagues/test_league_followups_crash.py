"""Nothing half-applied: a remedy whose process is killed (kill -9) right after the league's
append, before the games were changed, is finished by a worker. The league's log and the
game's agree in the end: the substitute sits in the seat, the table's clock is stopped,
the cancelled league's game is aborted, each once; a new league's first round is
scheduled."""

from __future__ import annotations

import signal
import subprocess
import sys
from datetime import datetime

import pytest

from events import keys
from service import league_followups
from tests.api.helpers import bearer, new_players
from tests.conftest import ROOT, _env
from tests.leagues.helpers import running_league
from tests.support.waiting import wait_for

pytestmark = [pytest.mark.slow, pytest.mark.crash]

# The remedy as the API runs it, in a process that kills itself with SIGKILL the moment
# the league's append has returned and the games are about to change.
CRASHING = """
import os, signal, sys
from datetime import UTC, datetime, timedelta
from api.schemas import LeagueCreate
from cli.compose import create_app
from service import league_commands, league_followups, league_lifecycle, league_remedies
from tests.conftest import TEST_CONFIG
url, what, lid, by, *rest = sys.argv[1:]
deps = create_app({**TEST_CONFIG, "REDIS_URL": url, "RQ_REDIS_URL": url}).extensions["marketfold"]
league_followups.follow = lambda *a: os.kill(os.getpid(), signal.SIGKILL)
if what == "substitute":
    league_remedies.substitute(deps, lid, rest[0], {"id": rest[1], "name": rest[2]}, by)
elif what == "pause_table":
    league_remedies.pause_table(deps, lid, 1, 1, by)
elif what == "create":  # the body as the API reads it (api.schemas.LeagueCreate)
    start = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    body = LeagueCreate().load({"ruleset": "goblin-market", "table_size": 3, "rounds": 2,
                                "start_at": start, "cadence_s": 3600, "decision_timeout_s": 60})
    league_commands.create(deps, {"id": by, "name": "organizer"}, body)
else:
    league_lifecycle.cancel(deps, lid, by)
print("not killed")
"""


def crash(redis_url: str, *args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CRASHING, redis_url, *args],
        env={**_env(redis_url), "MARKETFOLD_CLAIM_S": "1"},  # the follow-up's claim: 1 s
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == -signal.SIGKILL, (done.stdout, done.stderr[-2000:])


def kinds(client, gid: str) -> list[str]:
    return [e["type"] for e in client.get(f"/v1/games/{gid}/events").get_json()["events"]]


@pytest.mark.parametrize("what", ["substitute", "pause_table", "cancel"])
def test_a_remedy_killed_between_its_writes_is_finished_by_a_worker(
    client, app, r, redis_url, worker_process, what
):
    lid, op, players = running_league(client, app, 3, rounds=2, table_size=3)
    (sub,) = new_players(client, 1, "s")
    url = f"/v1/leagues/{lid}"
    gid = client.get(f"{url}/rounds/1").get_json()["tables"][0]["game"]
    before = client.get(url).get_json()["version"]
    games_before = kinds(client, gid)
    args = [players[0]["id"], sub["id"], sub["name"]] if what == "substitute" else []
    crash(redis_url, what, lid, op["id"], *args)

    # killed in between: the league's event is written, the game untouched, the
    # follow-up waits in the deadline index
    league = client.get(url).get_json()
    assert league["version"] == before + 1
    assert kinds(client, gid) == games_before
    member = f"{league_followups.JOB}|{lid}|{before + 1}".encode()
    assert r.zscore(keys.deadlines(), member) is not None

    worker_process()
    expected = {
        "substitute": "game.SeatTaken",
        "pause_table": "game.Paused",
        "cancel": "game.Ended",
    }[what]
    wait_for(lambda: expected in kinds(client, gid), 30)
    wait_for(lambda: r.zscore(keys.deadlines(), member) is None, 10)
    assert kinds(client, gid).count(expected) == 1
    if what == "substitute":
        game = client.get(f"/v1/games/{gid}", headers=bearer(sub)).get_json()
        assert game["seats"][game["you"]]["player"] == sub["id"]
    if what == "cancel":
        assert client.get(f"/v1/games/{gid}").get_json()["result"]["reason"] == "aborted"
    # and running it again (a second worker, a late sweep) changes nothing more
    assert league_followups.follow(app.extensions["marketfold"], lid, before + 1) == "applied"
    assert kinds(client, gid).count(expected) == 1


def test_a_league_created_by_a_killed_request_still_starts_its_first_round(
    client, app, r, redis_url, worker_process
):
    (organizer,) = new_players(client, 1, "o")
    crash(redis_url, "create", "-", organizer["id"])
    (lid,) = [m.decode() for m in r.zrange(keys.leagues(), 0, -1)]  # listed with its append
    league = client.get(f"/v1/leagues/{lid}").get_json()
    assert league["version"] == 1
    first = f"round|{lid}|1".encode()
    assert r.zscore(keys.deadlines(), first) is None  # killed before scheduling it
    worker_process()
    due = wait_for(lambda: r.zscore(keys.deadlines(), first), 30)
    assert abs(due - datetime.fromisoformat(league["start_at"]).timestamp()) < 1

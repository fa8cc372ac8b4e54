"""Today's build on the data an earlier release left (docs/operations.md, "Upgrades"):
tests/data/upgrade/<release>/ is a `marketfold backup` of a server of that release
(tools/record_upgrade_fixture.py) holding finished, running and waiting games of every
ruleset and a league in its first round. Restored and served by today's code, every
finished game still verifies under the keys and the log's head saved then, and every
running game and the league's game play on to their end, and every waiting game waits on
until the lapse that release scheduled a day after its creation cancels it."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from datetime import datetime

import pytest
import requests

from cli.embedded import free_port
from games.schemas import random_action
from service.config import DEFAULTS
from tests.api.helpers import bearer
from tests.cli.test_cli import serve, stop
from tests.conftest import ROOT
from tests.support.waiting import wait_up

pytestmark = [pytest.mark.slow]
WAITING_S = DEFAULTS["WAITING_EXPIRE_S"]  # a waiting game lapses a day after its creation
RELEASES = sorted(p.name for p in (ROOT / "tests" / "data" / "upgrade").iterdir())


def marketfold(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cli", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def play_out(base: str, gid: str, players: list[dict], rnd: random.Random) -> dict:
    """Play random legal moves for `players` until the game ends."""
    seat_of = {}
    for p in players:
        seat_of[requests.get(f"{base}/v1/games/{gid}", headers=bearer(p)).json()["you"]] = p
    ends = time.monotonic() + 240
    while (game := requests.get(f"{base}/v1/games/{gid}").json())["status"] == "active":
        assert time.monotonic() < ends, f"{gid} did not finish"
        if not game["owed"]:  # a worker resolves a sealed phase
            time.sleep(0.05)
            continue
        who = seat_of[rnd.choice(game["owed"])["seat"]]
        legal = requests.get(f"{base}/v1/games/{gid}/legal", headers=bearer(who)).json()
        if not legal["actions"]:
            continue
        res = requests.post(
            f"{base}/v1/games/{gid}/actions",
            json=random_action(legal["actions"], rnd),
            headers=bearer(who),
        )
        assert res.status_code in (201, 202, 409), res.text  # 409: the phase moved on
    return game


def still_waits(base: str, gid: str, ruleset: str) -> None:
    """A waiting game of the earlier release waits on while it is younger than a day; from
    then on the lapse that release scheduled cancels it ("expired"), as today's build does."""
    game = requests.get(f"{base}/v1/games/{gid}").json()
    age = time.time() - datetime.fromisoformat(game["created_at"]).timestamp()
    if age < WAITING_S - 300:
        assert game["status"] == "waiting", ruleset
        return
    ends = time.monotonic() + 30
    while age > WAITING_S + 300 and game["status"] == "waiting":  # the worker's sweep
        assert time.monotonic() < ends, f"{ruleset}: an expired game was not cancelled"
        time.sleep(0.2)
        game = requests.get(f"{base}/v1/games/{gid}").json()
    if game["status"] == "cancelled":
        last = requests.get(f"{base}/v1/games/{gid}/events").json()["events"][-1]
        assert (last["type"], last["data"]["reason"]) == ("game.Cancelled", "expired"), ruleset


@pytest.mark.parametrize("release", RELEASES)
def test_todays_build_reads_and_plays_on_an_earlier_releases_data(release, tmp_path, monkeypatch):
    monkeypatch.setenv("MARKETFOLD_RATE_LIMIT_ANON", "100000/minute")  # one address plays all
    monkeypatch.setenv("MARKETFOLD_RATE_LIMIT_TOKEN", "100000/minute")
    saved = ROOT / "tests" / "data" / "upgrade" / release
    fixture = json.loads((saved / "fixture.json").read_text())
    (tmp_path / "keys.json").write_text(json.dumps(fixture["keys"]))
    (tmp_path / "head.json").write_text(json.dumps(fixture["head"]))
    data = tmp_path / "data"
    done = marketfold("restore", str(saved), "--data-dir", str(data))
    assert done.returncode == 0, done.stderr
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = serve(data, port)
    rnd = random.Random(11)
    try:
        wait_up(base + "/healthz")
        for ruleset, gid in fixture["finished"].items():
            bundle = tmp_path / f"{gid}.json"
            bundle.write_text(requests.get(f"{base}/v1/games/{gid}/export").text)
            checked = marketfold(
                "verify",
                str(bundle),
                "--keys",
                str(tmp_path / "keys.json"),
                "--seen",
                str(tmp_path / "head.json"),
                "--server",
                base,
            )
            assert checked.returncode == 0, f"{ruleset}: {checked.stdout}{checked.stderr}"
        for ruleset, running in fixture["active"].items():
            game = play_out(base, running["game"], running["players"], rnd)
            assert game["status"] == "finished", ruleset
            assert game["result"]["reason"] == "completed", ruleset
        for ruleset, gid in fixture["waiting"].items():
            still_waits(base, gid, ruleset)
        league = fixture["league"]
        shown = requests.get(f"{base}/v1/leagues/{league['id']}").json()
        assert shown["schedule"][0]["status"] == "started"  # by the earlier release
        gid = shown["schedule"][0]["tables"][0]["game"]
        play_out(base, gid, league["members"], rnd)
        ends = time.monotonic() + 60
        while not requests.get(f"{base}/v1/leagues/{league['id']}/standings").json()["recorded"]:
            assert time.monotonic() < ends, "the league did not record its game"
            time.sleep(0.3)
    finally:
        _, _, err = stop(proc)
    assert "Traceback" not in err, err

"""What third-party developers meet first: the demo, the reference bot, the docs page."""

import json
import re
import subprocess
import sys

import pytest
import requests

import games
from tests.api.helpers import bearer
from tests.conftest import ROOT, _env

pytestmark = pytest.mark.slow  # demos start whole services; bots play over live servers


@pytest.mark.parametrize("ruleset", sorted(games.REGISTRY))
def test_the_demo_plays_every_ruleset_to_the_end(ruleset, redis_url):
    env = {k: v for k, v in _env(redis_url).items() if k != "REDIS_URL"}  # it starts its own
    done = subprocess.run(
        [sys.executable, "-m", "cli", "demo", ruleset],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"({ruleset})" in done.stdout and ": finished" in done.stdout
    assert re.search(r"replay: http://127\.0\.0\.1:\d+/games/g_[\w-]+/replay", done.stdout)
    assert "winner" in done.stdout


def test_bots_with_a_custom_strategy_play_a_game_through_the_api(live_server, redis_url, tmp_path):
    s = requests.Session()
    players = [s.post(f"{live_server}/v1/players", json={"name": f"b{i}"}).json() for i in range(3)]
    gid = s.post(
        f"{live_server}/v1/games",
        json={"ruleset": "goblin-market", "players": 3},
        headers=bearer(players[0]),
    ).json()["id"]
    for p in players:
        s.post(f"{live_server}/v1/games/{gid}/join", headers=bearer(p))
    bots = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cli",
                "bot",
                "--server",
                live_server,
                "--game",
                gid,
                "--token",
                p["token"],
                "--strategy",
                "tests.api.strategies:never_bid",
                "--receipts",
                str(tmp_path / p["name"]),
            ],
            cwd=ROOT,
            env=_env(redis_url),
            stdout=subprocess.PIPE,
            text=True,
        )
        for p in players
    ]
    for bot in bots:
        bot.wait(120)
        assert bot.returncode == 0
    game = s.get(f"{live_server}/v1/games/{gid}").json()
    assert game["status"] == "finished"
    log = s.get(f"{live_server}/v1/games/{gid}/events").json()["events"]
    assert not any(e["type"] == "goblin-market.BidPlaced" for e in log)  # the hook decided
    assert any(e["type"] == "goblin-market.AllPassed" for e in log)
    for p in players:  # each bot kept the game's receipt its stream sent (#45 §2)
        kept = json.loads((tmp_path / p["name"] / f"{gid}.receipt.json").read_text())
        assert kept["game"] == gid and kept["promise"] and kept["leaves"]


def test_the_interactive_docs_are_served_from_the_package(client):
    page = client.get("/docs/")
    assert page.status_code == 200 and "text/html" in page.content_type
    html = page.get_data(as_text=True)
    # it reads the contract with every parameter written out (api/docs_ui.py)
    assert "/docs/openapi.json" in html and "swagger-ui-bundle.js" in html
    assert not re.search(r"""(src|href)=["']https?://""", html)  # no CDN
    bundle = client.get("/docs/swagger-ui-bundle.js")
    assert bundle.status_code == 200 and len(bundle.data) > 100_000
    spec = client.get("/openapi.yaml")
    assert spec.status_code == 200 and spec.get_data(as_text=True).startswith("openapi: 3.1")

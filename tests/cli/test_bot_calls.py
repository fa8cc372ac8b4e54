"""The reference bot acts from the turn signal its event stream carries: a whole GobCon
game costs each bot about two calls per move, far under the default per-token limit."""

from __future__ import annotations

import threading

import requests

from cli.bot import Bot
from tests.conftest import api_server

DEFAULT_LIMIT = 1200  # calls a minute per token (RATE_LIMIT_TOKEN's default)


def test_bots_play_a_whole_gobcon_game_from_the_stream_alone(redis_url, worker_process):
    worker_process()
    with api_server(redis_url, MARKETFOLD_RATE_LIMIT_TOKEN=f"{DEFAULT_LIMIT}/minute") as (base, _):
        http = requests.Session()
        people = [http.post(f"{base}/v1/players", json={"name": f"b{i}"}).json() for i in range(3)]
        auth = {"Authorization": f"Bearer {people[0]['token']}"}
        gid = http.post(
            f"{base}/v1/games", json={"ruleset": "gobcon", "players": 3}, headers=auth
        ).json()["id"]
        for p in people:
            http.post(
                f"{base}/v1/games/{gid}/join", headers={"Authorization": f"Bearer {p['token']}"}
            ).raise_for_status()
        bots = [Bot(base, gid, p["token"], seed=i) for i, p in enumerate(people)]
        threads = [threading.Thread(target=b.play, daemon=True) for b in bots]
        for t in threads:
            t.start()
        for t in threads:
            t.join(240)
        game = http.get(f"{base}/v1/games/{gid}").json()
    assert game["status"] == "finished"
    for bot in bots:
        assert bot.moves > 0 and bot.refused == 0
        # one legal + one action per move, the first read and the stream, a few slack
        assert bot.calls <= 2 * bot.moves + 8, (bot.moves, bot.calls)
        # the whole game, even if played within one minute, fits in one minute's budget
        # (a GobCon game's length varies with its shuffle: 200-700 calls a bot)
        assert bot.calls < DEFAULT_LIMIT

"""The reference bot acts from the turn signal its event stream carries (and from each
answer's legal actions): a whole GobCon game costs each bot about one call per move, far
under the default per-token limit; a bot whose seat moved up before the start plays on."""

from __future__ import annotations

import threading
import time

import pytest
import requests

from cli.bot import Bot
from cli.embedded import free_port
from tests.conftest import api_server

DEFAULT_LIMIT = 1200  # calls a minute per token (RATE_LIMIT_TOKEN's default)


def _seated(http: requests.Session, base: str, prefix: str, n: int) -> tuple[list[dict], str]:
    """`n` new players seated in a new GobCon game of `n`; return them and the game's id."""
    people = [
        http.post(f"{base}/v1/players", json={"name": f"{prefix}{i}"}).json() for i in range(n)
    ]
    auth = {"Authorization": f"Bearer {people[0]['token']}"}
    gid = http.post(
        f"{base}/v1/games", json={"ruleset": "gobcon", "players": n}, headers=auth
    ).json()["id"]
    for p in people:
        http.post(
            f"{base}/v1/games/{gid}/join", headers={"Authorization": f"Bearer {p['token']}"}
        ).raise_for_status()
    return people, gid


def test_bots_play_a_whole_gobcon_game_from_the_stream_alone(redis_url, worker_process):
    worker_process()
    with api_server(redis_url, MARKETFOLD_RATE_LIMIT_TOKEN=f"{DEFAULT_LIMIT}/minute") as (base, _):
        http = requests.Session()
        people, gid = _seated(http, base, "b", 3)
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
        # one action per move (its legal actions came with the signal or the last
        # answer), the first read and the stream, a few slack
        assert bot.calls <= bot.moves + 8, (bot.moves, bot.calls)
        # the whole game, even if played within one minute, fits in one minute's budget
        # (a GobCon game's length varies with its shuffle: 200-700 calls a bot)
        assert bot.calls < DEFAULT_LIMIT


def test_a_bot_whose_seat_moved_up_before_the_start_plays_to_the_end(redis_url, worker_process):
    """Issue 27.1: `marketfold bot` stalled for good once a seat in front of it was freed."""
    worker_process()
    with api_server(redis_url) as (base, _):
        http = requests.Session()
        people = [http.post(f"{base}/v1/players", json={"name": f"m{i}"}).json() for i in range(4)]
        gone, rest = people[0], people[1:]

        def auth(p):
            return {"Authorization": f"Bearer {p['token']}"}

        gid = http.post(
            f"{base}/v1/games", json={"ruleset": "gobcon", "players": 3}, headers=auth(gone)
        ).json()["id"]
        for p in [gone, rest[0]]:  # seats 0 and 1 of 3
            http.post(f"{base}/v1/games/{gid}/join", headers=auth(p)).raise_for_status()
        bots = [Bot(base, gid, p["token"], seed=i, wait_s=2.0) for i, p in enumerate(rest)]
        early = threading.Thread(target=bots[0].play, daemon=True)
        early.start()  # it starts seated at 1 and follows its stream
        time.sleep(1.0)
        http.post(f"{base}/v1/games/{gid}/leave", headers=auth(gone)).raise_for_status()
        for p in rest[1:]:  # its seat moved up to 0; the others join behind it: the start
            http.post(f"{base}/v1/games/{gid}/join", headers=auth(p)).raise_for_status()
        late = [threading.Thread(target=b.play, daemon=True) for b in bots[1:]]
        for t in late:
            t.start()
        for t in [early, *late]:
            t.join(150)  # (stalled for good before: under pytest-timeout)
        game = http.get(f"{base}/v1/games/{gid}").json()
    assert game["status"] == "finished", game["owed"]
    assert all(bot.moves > 0 for bot in bots)


def test_a_bot_whose_stream_is_refused_waits_and_plays_to_the_end(redis_url, worker_process):
    """A stream refused (429: the token's streams at the limit, as right after a restart
    while its old connections are still counted) once killed the bot's reader thread."""
    worker_process()
    with api_server(redis_url, MARKETFOLD_STREAM_LIMIT_TOKEN="1") as (base, _):
        http = requests.Session()
        people, gid = _seated(http, base, "r", 2)
        auth = {"Authorization": f"Bearer {people[0]['token']}"}
        held = requests.get(f"{base}/v1/games/{gid}/events/stream", headers=auth, stream=True)
        assert held.status_code == 200  # the first bot's token has its one stream already
        refused = requests.get(f"{base}/v1/games/{gid}/events/stream", headers=auth)
        assert refused.status_code == 429
        bots = [Bot(base, gid, p["token"], seed=i) for i, p in enumerate(people)]
        threads = [threading.Thread(target=b.play, daemon=True) for b in bots]
        for t in threads:
            t.start()
        time.sleep(2.5)  # its stream refused again and again meanwhile
        held.close()
        for t in threads:
            t.join(150)
        game = http.get(f"{base}/v1/games/{gid}").json()
    assert game["status"] == "finished", game["owed"]
    assert all(bot.moves > 0 for bot in bots)


def test_a_bot_rides_out_a_server_that_is_down_until_its_patience_runs_out():
    """A bot waits for a server that is down by time, backing off (it once gave up after
    60 quick tries, about 30 s: the bots of a league stopped for good in an outage)."""
    port = free_port()  # nothing listens there
    bot = Bot(f"http://127.0.0.1:{port}", "g_nowhere", "t", patience_s=3.0)
    started = time.monotonic()
    with pytest.raises(RuntimeError, match="no answer in 3 s"):
        bot.play()
    assert 2.0 <= time.monotonic() - started < 8.0
    assert bot.calls < 10  # backing off, not hammering

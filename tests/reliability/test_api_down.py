"""The API alone goes down (issue 16): gunicorn is killed while a real worker keeps running,
for longer than a decision's timeout. The decision that fell due meanwhile is not
defaulted; once the API is back it gets a fresh deadline (`game.DeadlineExtended` with
the old deadline, the new one and the reason), its default only after that, and the
game still verifies."""

from __future__ import annotations

import time

import requests

from cli.embedded import free_port
from events import keys
from events.codec import parse_time
from stores.operations import RedisOperations
from tests.conftest import gunicorn_args, kill_group
from tests.reliability.checks import events_of_kind
from tests.reliability.conftest import wait_healthy
from tests.support.waiting import wait_for

TIMEOUT_S = 2
ENV = {"MARKETFOLD_OUTAGE_AFTER_S": "1", "MARKETFOLD_CLAIM_S": "2"}  # the whole service's


def start_api(spawn, redis_url: str, port: int):
    proc = spawn(gunicorn_args(port, log_level="critical"), redis_url, **ENV)
    wait_healthy(f"http://127.0.0.1:{port}")
    return proc


def new_game(base: str) -> tuple[str, list[dict]]:
    """Create a 3-seat game with a TIMEOUT_S decision timeout through the API, seat
    everyone (it starts); return its id and the players."""
    players = [requests.post(f"{base}/v1/players", json={"name": f"p{i}"}).json() for i in range(3)]
    auth = [{"Authorization": f"Bearer {p['token']}"} for p in players]
    body = {"ruleset": "goblin-market", "players": 3, "decision_timeout_s": TIMEOUT_S}
    res = requests.post(f"{base}/v1/games", json=body, headers=auth[0])
    assert res.status_code == 201, res.text
    gid = res.json()["id"]
    for headers in auth:
        assert requests.post(f"{base}/v1/games/{gid}/join", headers=headers).status_code == 200
    return gid, auth


def test_a_decision_due_while_the_api_is_down_gets_a_fresh_deadline_not_its_default(
    redis_url, r, app, spawn
):
    store = app.extensions["marketfold"].store
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    api = start_api(spawn, redis_url, port)
    spawn(["-m", "cli", "worker"], redis_url, **ENV)
    wait_for(lambda: r.get(keys.api_heartbeat()) and r.get(keys.heartbeat()), 20)
    gid, auth = new_game(base)
    owed = store.load(gid).record.owed()[0]
    key, old = owed.key, store.load(gid).record.deadline(owed.key)
    due = parse_time(old).timestamp()

    kill_group(api)  # the API crashes just after the game started; the worker runs on
    down_since = RedisOperations(r).last_beat(api=True)
    assert down_since < due, "the API was still up at the deadline: the test proves nothing"
    time.sleep(max(0.0, due - time.time()) + 3 * float(ENV["MARKETFOLD_OUTAGE_AFTER_S"]))
    assert time.time() - float(r.get(keys.heartbeat())) < 1, "the worker is not running"
    during = [e["type"] for e in store.read(gid)]
    assert "game.DecisionTimedOut" not in during  # overdue for seconds, not defaulted
    assert "game.DeadlineExtended" not in during  # and not written to while the API is down
    assert r.zscore(keys.deadlines(), f"expire|{gid}|{key}")  # still due: postponed

    start_api(spawn, redis_url, port)
    back = wait_for(lambda: RedisOperations(r).outages_since(0), 10)
    assert [(start, end) for start, end in back if start < due < end] == [back[0]]
    end = back[0][1]
    extended = wait_for(lambda: events_of_kind(store, gid, "game.DeadlineExtended"), 10)
    data = extended[0]["data"]
    assert data["key"] == key and data["old_deadline"] == old and data["reason"] == "outage"
    assert data["seats"] == [owed.seat]
    new = parse_time(data["new_deadline"]).timestamp()
    assert new >= end + TIMEOUT_S - 0.01  # the grace window (the timeout: shorter) after it
    game = requests.get(f"{base}/v1/games/{gid}").json()
    assert game["owed"][0]["deadline"] == data["new_deadline"]

    # the default comes only after the fresh deadline, with the API up
    timed_out = wait_for(lambda: events_of_kind(store, gid, "game.DecisionTimedOut"), 15)
    assert timed_out[0]["data"]["key"] == key
    assert parse_time(timed_out[0]["at"]).timestamp() >= new
    for headers in auth[:2]:  # end the game: its bundle is then public and whole
        assert requests.post(f"{base}/v1/games/{gid}/resign", headers=headers).ok
    bundle = requests.get(f"{base}/v1/games/{gid}/export").json()
    verified = requests.post(f"{base}/v1/verify", json=bundle)
    assert verified.status_code == 200 and verified.json()["ok"], verified.text

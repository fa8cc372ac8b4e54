"""No default because the API was briefly down (issue 27.5), through real processes.

A freeze of the API (SIGSTOP of gunicorn's whole process group) far shorter than
OUTAGE_AFTER_S, over a decision's deadline, with a real worker running: the decision is
not defaulted (it gets a fresh deadline), and a player whose action was sent during the
freeze has it taken. A Redis stall longer than the time model's grace (30 s) over a
deadline: the first action after it is taken, not refused `deadline_passed`, even before
any worker has extended the deadline."""

from __future__ import annotations

import os
import signal
import threading
import time

import redis
import requests

from cli.embedded import free_port
from events import keys
from events.codec import parse_time
from events.deadlines import CURRENT, TIME_MODELS
from stores.operations import RedisOperations
from tests.reliability.checks import events_of_kind
from tests.reliability.conftest import wait_healthy
from tests.support.waiting import wait_for

TIMEOUT_S = 3


def new_game(base: str, timeout: int = TIMEOUT_S) -> tuple[str, dict, int, str]:
    """Start a 3-seat Goblin Market game; return its id, the seats' headers, the seat that
    owes the first decision and that decision's deadline."""
    players = [requests.post(f"{base}/v1/players", json={"name": f"p{i}"}).json() for i in range(3)]
    auth = [{"Authorization": f"Bearer {p['token']}"} for p in players]
    body = {"ruleset": "goblin-market", "players": 3, "decision_timeout_s": timeout}
    gid = requests.post(f"{base}/v1/games", json=body, headers=auth[0]).json()["id"]
    for headers in auth:
        assert requests.post(f"{base}/v1/games/{gid}/join", headers=headers).status_code == 200
    seats = {requests.get(f"{base}/v1/games/{gid}", headers=h).json()["you"]: h for h in auth}
    owed = requests.get(f"{base}/v1/games/{gid}").json()["owed"][0]
    return gid, seats, owed["seat"], owed["deadline"]


def signal_group(proc, sig: int) -> None:
    os.killpg(proc.pid, sig)


def test_a_short_api_freeze_over_a_deadline_defaults_nothing(redis_url, r, app, api, worker):
    store = app.extensions["marketfold"].store
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = api(redis_url, port)  # OUTAGE_AFTER_S: the default 15 s
    worker(redis_url)
    wait_for(lambda: r.get(keys.api_heartbeat()) and r.get(keys.heartbeat()), 20)
    idle, _, idle_seat, idle_deadline = new_game(base)  # nobody acts
    acting, seats, seat, deadline = new_game(base)  # its player acts during the freeze
    due = parse_time(deadline).timestamp()

    signal_group(server, signal.SIGSTOP)  # the API freezes; the worker runs on
    try:
        frozen_at = time.time()
        assert frozen_at < parse_time(idle_deadline).timestamp(), "frozen too late: proves nothing"
        answer: dict = {}

        def act() -> None:  # sent after the deadline, while the API is frozen
            url = f"{base}/v1/games/{acting}/actions"
            answer["res"] = requests.post(
                url, json={"type": "pass"}, headers=seats[seat], timeout=60
            )

        time.sleep(max(0.0, due - time.time()) + 0.5)
        sender = threading.Thread(target=act)
        sender.start()
        time.sleep(max(0.0, frozen_at + 8 - time.time()))  # 8 s: far under OUTAGE_AFTER_S
        assert "game.DecisionTimedOut" not in [e["type"] for e in store.read(idle)]
    finally:
        signal_group(server, signal.SIGCONT)
    back = time.time()
    sender.join(30)
    assert answer["res"].status_code == 201, answer["res"].text  # taken, not refused
    # the decision of the idle game: a fresh deadline, its default only after it
    extended = wait_for(lambda: events_of_kind(store, idle, "game.DeadlineExtended"), 15)
    data = extended[0]["data"]
    assert data["old_deadline"] == idle_deadline and data["reason"] == "outage"
    assert parse_time(data["new_deadline"]).timestamp() >= back + TIMEOUT_S - 1
    timed_out = wait_for(lambda: events_of_kind(store, idle, "game.DecisionTimedOut"), 20)
    assert timed_out[0]["data"]["seat"] == idle_seat
    assert parse_time(timed_out[0]["at"]) >= parse_time(data["new_deadline"])
    # the acting game: the player's own pass, no default for that decision
    log = store.read(acting)
    assert [
        e
        for e in log
        if e["type"] == "game.DecisionTimedOut"
        and e["data"]["seat"] == seat
        and parse_time(e["at"]).timestamp() < back + TIMEOUT_S
    ] == []
    assert any(e.get("command", {}).get("type") == "act" for e in log)
    seen = RedisOperations(r).outages_since(0)
    assert [(s, e) for s, e in seen if s < due < e]  # the freeze is on record


def test_an_action_after_a_redis_stall_longer_than_the_grace_is_taken(crash_redis, api, worker):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    api(crash_redis.url, port)
    crew = worker(crash_redis.url)
    r = redis.Redis.from_url(crash_redis.url)
    wait_for(lambda: r.get(keys.api_heartbeat()) and r.get(keys.heartbeat()), 20)
    gid, seats, seat, deadline = new_game(base, timeout=2)
    signal_group(crew, signal.SIGSTOP)  # no worker extends anything: the API alone must
    os.kill(crash_redis.process.pid, signal.SIGSTOP)
    try:
        grace = TIME_MODELS[CURRENT].grace.total_seconds()
        stall = parse_time(deadline).timestamp() + grace + 2 - time.time()
        time.sleep(stall)  # the deadline and its 30 s of grace pass while Redis stalls
    finally:
        os.kill(crash_redis.process.pid, signal.SIGCONT)
    try:
        wait_healthy(base)
        res = requests.post(
            f"{base}/v1/games/{gid}/actions", json={"type": "pass"}, headers=seats[seat], timeout=30
        )
        assert res.status_code == 201, res.text  # not 409 deadline_passed
        types = [e["type"] for e in requests.get(f"{base}/v1/games/{gid}/events").json()["events"]]
        assert "game.DeadlineExtended" in types and "game.DecisionTimedOut" not in types
    finally:
        signal_group(crew, signal.SIGCONT)

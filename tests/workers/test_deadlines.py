"""Missed deadlines get the default action, applied by real RQ worker processes, once."""

import time

from service import usecases
from tests.service.helpers import bearer, by_seat, new_game, new_players
from workers import schedule


def timed_out(client, gid):
    events = client.get(f"/v1/games/{gid}/events").get_json()["events"]
    return [e for e in events if e["type"] == "game.DecisionTimedOut"]


def wait_for(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := predicate():
            return value
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


def test_a_missed_bid_is_passed_by_a_worker_and_logged_as_a_timeout(client, worker_process):
    players = new_players(client, 3)
    gid = new_game(client, players, decision_timeout_s=1)
    game = client.get(f"/v1/games/{gid}").get_json()
    first = game["owed"][0]
    assert first["deadline"] is not None
    worker_process()
    event = wait_for(lambda: timed_out(client, gid))[0]
    assert event["actor"] == "system" and event["data"]["seat"] == first["seat"]
    assert event["data"]["default"] == {"type": "pass"}
    log = client.get(f"/v1/games/{gid}/events").get_json()["events"]
    after = log[event["seq"]]  # the default's own events follow, from the same command
    assert after["type"] == "goblin-market.BidPassed" and after["cause"] == event["cause"]
    assert after["data"]["seat"] == first["seat"]


def test_a_decision_made_in_time_is_not_expired(client, app):
    players = new_players(client, 3)
    gid = new_game(client, players, decision_timeout_s=60)
    seats = by_seat(client, gid, players)
    game = client.get(f"/v1/games/{gid}").get_json()
    seat = game["owed"][0]["seat"]
    deps = app.extensions["marketfold"]
    key = deps.store.load(gid).record.owed()[0].key
    assert usecases.expire(deps, gid, key) == "early"  # not due yet: nothing happens
    client.post(f"/v1/games/{gid}/actions", json={"type": "pass"}, headers=bearer(seats[seat]))
    version = client.get(f"/v1/games/{gid}").get_json()["version"]
    assert usecases.expire(deps, gid, key) == "noop"
    assert client.get(f"/v1/games/{gid}").get_json()["version"] == version


def test_two_workers_and_a_duplicated_schedule_apply_a_timeout_once(client, app, worker_process):
    players = new_players(client, 3)
    gid = new_game(client, players, decision_timeout_s=1)
    deps = app.extensions["marketfold"]
    key = deps.store.load(gid).record.owed()[0].key
    schedule.expiry(deps, gid, key, "2000-01-01T00:00:00.000Z")  # scheduled again, overdue
    for _ in range(3):
        deps.queue.enqueue(schedule.EXPIRE_JOB, gid, key)  # and duplicate jobs
    worker_process()
    worker_process()
    wait_for(lambda: timed_out(client, gid))
    time.sleep(2.5)  # let every duplicate run
    assert [e["data"]["key"] for e in timed_out(client, gid)].count(key) == 1


def test_repeated_expiry_of_the_same_decision_is_a_no_op(client, app):
    players = new_players(client, 3)
    gid = new_game(client, players, decision_timeout_s=1)
    deps = app.extensions["marketfold"]
    key = deps.store.load(gid).record.owed()[0].key
    time.sleep(1.1)
    assert usecases.expire(deps, gid, key) == "applied"
    version = deps.store.load(gid).record.version
    assert usecases.expire(deps, gid, key) == "noop"
    assert deps.store.load(gid).record.version == version

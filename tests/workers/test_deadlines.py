"""Missed deadlines get the default action, applied by real RQ worker processes, once."""

import time

from rq.registry import FailedJobRegistry

from events.codec import parse_time
from service import deadline_commands
from service.ports import job_id as work_id
from tests.api.helpers import bearer, by_seat, new_game, new_players
from tests.conftest import kill_group
from tests.support.waiting import wait_for
from workers import scheduler


def timed_out(client, gid):
    events = client.get(f"/v1/games/{gid}/events").get_json()["events"]
    return [e for e in events if e["type"] == "game.DecisionTimedOut"]


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
    assert deadline_commands.expire(deps, gid, key) == "early"  # not due yet: nothing happens
    client.post(f"/v1/games/{gid}/actions", json={"type": "pass"}, headers=bearer(seats[seat]))
    version = client.get(f"/v1/games/{gid}").get_json()["version"]
    assert deadline_commands.expire(deps, gid, key) == "noop"
    assert client.get(f"/v1/games/{gid}").get_json()["version"] == version


def test_two_workers_and_a_duplicated_schedule_apply_a_timeout_once(client, app, worker_process):
    players = new_players(client, 3)
    gid = new_game(client, players, decision_timeout_s=1)
    deps = app.extensions["marketfold"]
    key = deps.store.load(gid).record.owed()[0].key
    deps.scheduler.expiry(gid, key, "2000-01-01T00:00:00.000Z")  # scheduled again, overdue
    for _ in range(3):
        deps.scheduler.queue.enqueue(scheduler.JOBS["expire"], gid, key)  # and duplicate jobs
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
    assert deadline_commands.expire(deps, gid, key) == "applied"
    version = deps.store.load(gid).record.version
    assert deadline_commands.expire(deps, gid, key) == "noop"
    assert deps.store.load(gid).record.version == version


def test_deadlines_fire_after_the_worker_holding_the_scheduler_is_killed(client, r, worker_process):
    first = worker_process()
    wait_for(lambda: r.keys("rq:scheduler-lock:*"))  # the first worker took RQ's scheduler
    second = worker_process()
    time.sleep(0.5)
    kill_group(first)
    assert r.keys("rq:scheduler-lock:*")  # the dead worker's lock outlives it
    players = new_players(client, 3)
    gid = new_game(client, players, decision_timeout_s=1)
    deadline = client.get(f"/v1/games/{gid}").get_json()["owed"][0]["deadline"]
    event = wait_for(lambda: timed_out(client, gid))[0]
    late = (parse_time(event["at"]) - parse_time(deadline)).total_seconds()
    assert late >= 0, late  # never early; how late (docs/workers.md): bench/jobs/phases.py
    assert second.poll() is None


def test_a_job_that_keeps_failing_is_retried_then_kept_in_the_failed_registry(
    client, app, r, worker_process
):
    players = new_players(client, 3)
    gid = new_game(client, players, decision_timeout_s=60)
    deps = app.extensions["marketfold"]
    key = deps.store.load(gid).record.owed()[0].key
    r.xadd(f"mf:{{g:{gid}}}:events", {"e": b"{not json"}, id="999-0")  # a corrupted log
    r.delete(f"mf:{{g:{gid}}}:snapshot")
    deps.scheduler.expiry(gid, key, "2000-01-01T00:00:00.000Z")
    worker_process(MARKETFOLD_RETRY_INTERVALS="[0, 0]", MARKETFOLD_CLAIM_S="600")
    job_id = work_id("expire", gid, key)
    registry = FailedJobRegistry(
        name=deps.scheduler.queue.name, connection=deps.scheduler.queue.connection
    )
    wait_for(lambda: job_id in registry.get_job_ids())
    job = deps.scheduler.queue.fetch_job(job_id)
    assert job.retries_left == 0
    assert "JSONDecodeError" in job.latest_result().exc_string

"""No game waits behind other games' deadlines (issue 27.3): a decision answered in time
leaves the deadline index with its answer, so no job is ever queued for it; and a ready
phase's resolution goes to the queue every worker listens to first, so a reveal does not
wait behind a backlog of expiries (real RQ worker, real Redis)."""

import time

from rq import Queue

from events import keys
from service.ports import job_id
from tests.api.helpers import bearer, by_seat, new_game, new_players
from tests.support.waiting import wait_for
from tests.workers.helpers import bid, reveals, sealed_table
from workers import scheduler

BACKLOG = 1500  # expiry jobs queued before the phase: many seconds of a worker's time


def test_a_decision_answered_in_time_leaves_the_deadline_index(client, app, r):
    players = new_players(client, 3)
    gid = new_game(client, players, decision_timeout_s=60)
    seats = by_seat(client, gid, players)
    owed = app.extensions["marketfold"].store.load(gid).record.owed()[0]
    member = f"expire|{gid}|{owed.key}"
    assert r.zscore(keys.deadlines(), member) is not None  # owed: its deadline is due later
    res = client.post(
        f"/v1/games/{gid}/actions", json={"type": "pass"}, headers=bearer(seats[owed.seat])
    )
    assert res.status_code == 201, res.get_json()
    assert r.zscore(keys.deadlines(), member) is None  # answered: no job will ever run for it
    after = app.extensions["marketfold"].store.load(gid).record.owed()[0]
    assert r.zscore(keys.deadlines(), f"expire|{gid}|{after.key}") is not None  # the next one


def test_a_reveal_does_not_wait_behind_a_backlog_of_deadline_jobs(client, app, worker_process):
    deps = app.extensions["marketfold"]
    # a backlog of expiries of a decision already answered (as a busy service had: jobs
    # claimed just before the answer, or left by an older version), queued first
    players = new_players(client, 3)
    other = new_game(client, players, decision_timeout_s=60)
    seats = by_seat(client, other, players)
    owed = deps.store.load(other).record.owed()[0]
    client.post(
        f"/v1/games/{other}/actions", json={"type": "pass"}, headers=bearer(seats[owed.seat])
    )
    due: Queue = deps.scheduler.queue
    jobs = [
        Queue.prepare_data(scheduler.JOBS["expire"], (other, owed.key), job_id=f"backlog-{i}")
        for i in range(BACKLOG)
    ]
    due.enqueue_many(jobs)
    gid, table, game = sealed_table(client)
    worker_process()
    wait_for(lambda: due.count < BACKLOG - 10)  # the worker is working through the backlog
    for seat in [o["seat"] for o in game["owed"]]:
        bid(client, gid, table, seat, 1)
    started = time.monotonic()
    wait_for(lambda: reveals(client, gid), timeout=60)
    took, left = time.monotonic() - started, due.count
    assert left > BACKLOG // 2, f"the reveal came after the backlog ({left} jobs left)"
    assert took < 5, took  # one job's wait, not the backlog's (a loaded machine: generous)


def test_a_claim_that_lapses_while_its_job_waits_does_not_queue_it_again(client, app, r):
    deps = app.extensions["marketfold"]
    gid = new_game(client, new_players(client, 3), decision_timeout_s=60)
    key = deps.store.load(gid).record.owed()[0].key
    due, member = deps.scheduler.queue, f"expire|{gid}|{key}"
    deps.scheduler.expiry(gid, key, "2000-01-01T00:00:00.000Z")  # overdue; no worker runs
    assert deps.scheduler.sweep(time.time()) == 1 and due.count == 1
    for _ in range(3):  # the claim lapses again and again while the job still waits
        r.zadd(keys.deadlines(), {member: 946684800})
        assert deps.scheduler.sweep(time.time()) == 1
    assert due.count == 1  # one job, not four: a long queue does not feed itself


def test_a_job_a_killed_worker_took_off_its_queue_is_queued_again_when_its_claim_lapses(
    client, app, r, worker_process
):
    deps = app.extensions["marketfold"]
    gid, seats, game = sealed_table(client)  # no worker yet: the resolution waits queued
    bidders = [o["seat"] for o in game["owed"]]
    for seat in bidders:
        bid(client, gid, seats, seat, 1)
    rec = deps.store.load(gid).record
    phase = rec.game.ready(rec.state)
    urgent = deps.scheduler.queue_of("resolve")
    assert urgent.count == 1
    # a worker takes the job off the list (RQ moves it to its intermediate queue) and is
    # killed before it starts it: the job's status still says "queued"
    conn = urgent.connection
    assert conn.lmove(urgent.key, urgent.intermediate_queue_key) is not None
    job = urgent.fetch_job(job_id("resolve", gid, phase))
    assert urgent.count == 0 and job.get_status() == "queued"
    r.zadd(keys.deadlines(), {f"resolve|{gid}|{phase}": 946684800})  # its claim lapses
    assert deps.scheduler.sweep(time.time()) == 1
    assert urgent.count == 1  # queued again, not taken for a job that still waits
    worker_process()
    wait_for(lambda: reveals(client, gid))
    time.sleep(1.0)
    assert len(reveals(client, gid)) == 1


def test_a_deadline_does_not_wait_behind_a_backlog_of_notifications(client, app, worker_process):
    """Notifications are not RQ jobs: a worker's notifier threads work through their own
    due set (workers.notifier) while its RQ worker applies a game's default on time."""
    deps = app.extensions["marketfold"]
    r = deps.redis
    now = time.time()
    r.zadd(keys.notify_due(), {f"deliver|n_gone|email-t{i}-p_x": now for i in range(BACKLOG)})
    gid = new_game(client, new_players(client, 3), decision_timeout_s=2)
    worker_process()
    wait_for(lambda: r.zcard(keys.notify_due()) < BACKLOG - 10)  # the backlog is being worked

    def defaulted():
        events = client.get(f"/v1/games/{gid}/events").get_json()["events"]
        return any(e["type"] == "game.DecisionTimedOut" for e in events)

    wait_for(defaulted, timeout=30)
    left = r.zcard(keys.notify_due())
    assert left > BACKLOG // 2, f"the default came after the backlog ({left} left)"
    wait_for(lambda: r.zcard(keys.notify_due()) == 0, timeout=120)  # and every step ran once


def test_a_notification_step_left_in_the_deadline_index_by_an_older_version_still_runs(client, app):
    """An upgrade from a version that ran notifications as RQ jobs: the sweep hands such
    members to the notifier's due set instead of queueing a job nobody runs."""
    deps = app.extensions["marketfold"]
    r = deps.redis
    r.zadd(keys.deadlines(), {"deliver|n_old|email-t1-p_x": time.time() - 5})
    assert deps.scheduler.sweep(time.time()) == 1
    assert r.zscore(keys.deadlines(), "deliver|n_old|email-t1-p_x") is None
    assert r.zscore(keys.notify_due(), "deliver|n_old|email-t1-p_x") is not None
    assert deps.scheduler.queue.count == 0 and deps.scheduler.urgent.count == 0

"""A worker's notifier (workers/notifier.py) takes the steps of decisions owed before any
other news, and never claims more steps than it has idle threads (real Redis)."""

from __future__ import annotations

import threading
import time

from events import keys
from workers.notifier import Notifier


def test_a_turn_is_taken_before_a_backlog_of_older_news_and_claims_match_idle_threads(app):
    deps = app.extensions["marketfold"]
    r, now = deps.redis, time.time()
    news = {f"deliver|n_news{i}|email-t-p_x": now - 60 for i in range(50)}  # a burst, older
    r.zadd(keys.notify_due(), news)
    r.zadd(keys.notify_due(turns=True), {"deliver|n_turn|email-t-p_y": now - 1})
    notifier = Notifier(deps, threads=1)
    gate = threading.Event()
    notifier.run = lambda member, due_set: gate.wait(5)  # hold the one thread busy
    try:
        assert notifier.step(now) == 1
        assert r.zscore(keys.notify_due(turns=True), "deliver|n_turn|email-t-p_y") > now  # claimed
        assert r.zcount(keys.notify_due(), "-inf", now) == 50  # no news claimed
        notifier.running = 1
        assert notifier.step(now) == 0  # no idle thread: nothing more is claimed
    finally:
        gate.set()
        notifier.pool.shutdown(wait=True)


def test_every_due_step_runs_once_and_leaves_its_set(app):
    deps = app.extensions["marketfold"]
    r, now = deps.redis, time.time()
    r.zadd(keys.notify_due(), {f"deliver|n_gone{i}|email-t-p_x": now for i in range(30)})
    r.zadd(keys.notify_due(turns=True), {f"remind|p_x|n_gone{i}": now for i in range(10)})
    stop = threading.Event()
    runner = threading.Thread(target=Notifier(deps, threads=4).forever, args=(stop,))
    runner.start()
    try:
        deadline = time.monotonic() + 20
        while r.zcard(keys.notify_due()) + r.zcard(keys.notify_due(turns=True)):
            assert time.monotonic() < deadline, "steps left due"
            time.sleep(0.05)
    finally:
        stop.set()
        runner.join(10)
    assert not runner.is_alive()


def test_the_notifier_threads_run_at_a_lower_cpu_priority_than_the_worker(app):
    """On a busy machine the moves and the games' jobs get the CPU first (NOTIFY_NICE)."""
    import os

    deps = app.extensions["marketfold"]
    own = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    deps.config["NOTIFY_NICE"] = 7
    notifier = Notifier(deps, threads=2)
    try:
        mine = lambda: os.getpriority(os.PRIO_PROCESS, threading.get_native_id())  # noqa: E731
        assert {notifier.pool.submit(mine).result() for _ in range(4)} == {min(19, own + 7)}
        assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == own  # unchanged
    finally:
        notifier.pool.shutdown(wait=True)

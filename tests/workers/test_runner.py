"""The worker's care of RQ's scheduler child: started again when it exits on its own
(a Redis outage longer than its retries), never once the worker was told to stop (the
child exited on that signal; one started again would be waited for at exit, for ever)."""

from __future__ import annotations

import multiprocessing
from datetime import UTC, datetime

import redis
from rq import Queue, SimpleWorker

from workers.runner import keep_scheduler


class Scheduler:
    """RQ's scheduler as keep_scheduler sees it: its child process, and a restart."""

    def __init__(self):
        self._process = multiprocessing.get_context("fork").Process(target=lambda: None)
        self._process.start()
        self._process.join()  # exited
        self.restarts = 0

    def acquire_locks(self, auto_start: bool = False) -> None:
        self.restarts += auto_start


def _worker(redis_url: str) -> SimpleWorker:  # built, never run
    worker = SimpleWorker([Queue("q", connection=redis.Redis.from_url(redis_url))])
    worker.scheduler = Scheduler()
    return worker


def test_an_exited_scheduler_child_is_started_again(redis_url):
    worker = _worker(redis_url)
    keep_scheduler(worker)
    assert worker.scheduler.restarts == 1


def test_no_scheduler_is_started_once_the_worker_was_told_to_stop(redis_url):
    worker = _worker(redis_url)
    worker._shutdown_requested_date = datetime.now(UTC)  # as RQ's request_stop
    keep_scheduler(worker)
    assert worker.scheduler.restarts == 0

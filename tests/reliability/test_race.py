"""32 clients play 20 games of every ruleset at once over HTTP (gunicorn, a worker),
retrying with the same Idempotency-Key and sending stale If-Match; afterwards every log
verifies, every acknowledged action is in it exactly once, and every state served equals
the fold of the log."""

from __future__ import annotations

import time

import redis

from tests.reliability.checks import check_everything
from tests.reliability.load import Load, new_tables
from tests.support.waiting import wait_for


def test_32_clients_on_20_games_lose_and_duplicate_nothing(live_server, redis_url, worker_process):
    worker_process()
    load = Load(live_server, new_tables(live_server, 20, seed=1), seed=1)
    load.start(32)
    time.sleep(20)
    # and on until enough was played to check: a loaded machine plays slower
    wait_for(lambda: len(load.acks) > 300 and len(load.finished) >= 3, 100)
    load.join()
    load.settle()
    assert not load.errors, load.errors[:5]
    counts = check_everything(live_server, redis.Redis.from_url(redis_url), load)
    assert counts["acked"] > 300 and counts["finished"] >= 3, counts
    assert load.statuses[(412, "version_mismatch")] > 0  # stale If-Match really was sent
    retried = sum(1 for answers in load.acks.values() if len(answers) > 1)
    assert retried > 20, retried  # and retries with the same key were really answered twice
    print(counts, f"retried={retried}", dict(load.statuses))

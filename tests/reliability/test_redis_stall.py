"""A stalled Redis (SIGSTOP: it takes connections and never answers) must not freeze the
API: /healthz says 503 within a second, routes that need no Redis answer at once, routes
that need it answer 503 after REDIS_TIMEOUT_S; and a worker rides it out with one log
line per failure, its RQ scheduler child reaped (issue #27.6)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from cli.embedded import EmbeddedRedis, free_port
from tests.conftest import ROOT, _env, api_server
from tests.support.waiting import wait_for

pytestmark = pytest.mark.slow


@pytest.fixture
def stallable(tmp_path):
    """A private Valkey the test stops (SIGSTOP) and continues; the session's is never
    touched."""
    server = EmbeddedRedis(tmp_path / "valkey", port=free_port(), appendfsync="everysec").start()
    yield server
    try:
        os.kill(server.process.pid, signal.SIGCONT)
    except ProcessLookupError:
        pass
    server.kill()


def timed(method: str, url: str, **kwargs) -> tuple[int, float]:
    start = time.monotonic()
    try:
        res = requests.request(method, url, timeout=15, **kwargs)
        status = res.status_code
    except requests.RequestException:
        status = 0
    return status, time.monotonic() - start


def test_a_stalled_redis_answers_health_in_a_second_and_holds_no_storeless_route(stallable):
    with api_server(stallable.url, MARKETFOLD_REDIS_TIMEOUT_S="2") as (base, _):
        token = requests.post(f"{base}/v1/players", json={"name": "ana"}, timeout=10).json()
        auth = {"Authorization": f"Bearer {token['token']}"}
        assert timed("GET", base + "/healthz")[0] == 200
        os.kill(stallable.process.pid, signal.SIGSTOP)
        try:
            for _ in range(3):
                status, took = timed("GET", base + "/healthz")
                assert status == 503 and took < 1.0, (status, took)
            # no Redis needed: answered at once, however often asked, with or without a token
            for path in ("/v1/rulesets", "/v1/rulesets/gobcon/cards", "/openapi.yaml", "/"):
                for headers in ({}, auth):
                    for _ in range(3):
                        status, took = timed("GET", base + path, headers=headers)
                        assert status == 200 and took < 1.0, (path, status, took)
            # a route that needs Redis: a clean 503 after the configured timeout, not 5 s+
            status, took = timed("GET", base + "/v1/games/g_nope", headers=auth)
            assert status == 503 and took < 4.5, (status, took)
        finally:
            os.kill(stallable.process.pid, signal.SIGCONT)
        deadline = time.monotonic() + 10
        while timed("GET", base + "/healthz")[0] != 200:
            assert time.monotonic() < deadline, "the API did not recover"
            time.sleep(0.1)
        assert timed("GET", base + "/v1/games/g_nope", headers=auth)[0] == 404


def _children(pid: int) -> list[tuple[int, str]]:
    """(pid, state) of the process's children, from /proc."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid:
            out.append((int(entry.name), fields[0]))
    return out


def test_a_worker_logs_one_line_per_failure_and_reaps_its_scheduler_child(stallable, tmp_path):
    log_path = tmp_path / "worker.log"
    with open(log_path, "wb") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "cli", "worker"],
            env={**_env(stallable.url), "MARKETFOLD_REDIS_TIMEOUT_S": "1"},
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        first = wait_for(  # RQ's scheduler child
            lambda: _children(worker.pid), 15, every=0.1, what="the scheduler child"
        )
        os.kill(stallable.process.pid, signal.SIGSTOP)
        time.sleep(6)
        os.kill(stallable.process.pid, signal.SIGCONT)
        stallable.kill()  # then gone for a while: connections refused
        time.sleep(3)
        # a longer outage ends RQ's scheduler child (its retries run out): as if now
        os.kill(first[0][0], signal.SIGKILL)
        stallable.start()
        again = wait_for(
            lambda: [c for c in _children(worker.pid) if c[1] != "Z" and c[0] != first[0][0]],
            5,
            every=0.1,
            what="a new scheduler child",
        )
        assert again and worker.poll() is None, log_path.read_text()[-3000:]
        zombies = [pid for pid, state in _children(worker.pid) if state == "Z"]
        assert not zombies, f"zombie children {zombies}"
        text = log_path.read_text()
        assert "Traceback" not in text, text[-4000:]
        failures = [line for line in text.splitlines() if "Redis" in line or "redis" in line]
        assert failures, text[-2000:]
        assert len(text.splitlines()) < 60, text[-4000:]  # a line per failure, not a flood
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
        worker.wait()

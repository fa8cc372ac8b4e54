"""Processes the crash tests start and kill themselves: gunicorn, workers, a private Redis."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
import requests

from cli.embedded import EmbeddedRedis, free_port
from tests.conftest import ROOT, _env, gunicorn_args, kill_group


def wait_healthy(base: str, timeout: float = 20.0) -> None:
    """Wait until the API answers /healthz with 200."""
    ends = time.monotonic() + timeout
    while True:
        try:
            if requests.get(base + "/healthz", timeout=1).status_code == 200:
                return
        except requests.RequestException:
            pass
        assert time.monotonic() < ends, f"{base} did not come up"
        time.sleep(0.05)


@pytest.fixture
def spawn():
    """Start processes in their own process groups (so kill -9 reaches their children);
    every one still running is killed after the test."""
    procs: list[subprocess.Popen] = []

    def start(args: list[str], redis_url: str, **env: str) -> subprocess.Popen:
        proc = subprocess.Popen(
            [sys.executable, *args],
            env={**_env(redis_url), **env},
            cwd=ROOT,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        procs.append(proc)
        return proc

    yield start
    for proc in procs:
        kill_group(proc)


@pytest.fixture
def api(spawn):
    """Start the API as `marketfold serve` does on `port` against `redis_url`."""

    def start(redis_url: str, port: int) -> subprocess.Popen:
        proc = spawn(gunicorn_args(port, log_level="critical"), redis_url)
        wait_healthy(f"http://127.0.0.1:{port}")
        return proc

    return start


@pytest.fixture
def worker(spawn):
    """Start a `marketfold worker` against `redis_url`."""
    return lambda redis_url, **env: spawn(["-m", "cli", "worker"], redis_url, **env)


@pytest.fixture
def crash_redis(tmp_path):
    """A private Valkey with appendfsync=always, on a fixed port, that tests kill -9 and
    start again on the same data directory (the session's Redis is never touched)."""
    server = EmbeddedRedis(tmp_path / "valkey", port=free_port(), appendfsync="always").start()
    yield server
    server.kill()

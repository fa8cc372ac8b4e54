"""Shared fixtures: one real Redis server (Valkey) per test session, flushed per test."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import redis
import requests

from cli.compose import create_app
from cli.embedded import EmbeddedRedis, free_port
from cli.serve import gunicorn_argv
from events import keys, notify_keys
from tests import background

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    """A real Valkey server on a free loopback port, with AOF, for the whole session."""
    server = EmbeddedRedis(
        tmp_path_factory.mktemp("valkey"), port=free_port(), appendfsync="everysec"
    ).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def replica_pair(tmp_path_factory):
    """A Valkey master and one replica of it on loopback (AOF on both), for the module:
    (master, replica), each a cli.embedded.EmbeddedRedis (`pause`/`resume` stall one)."""
    root = tmp_path_factory.mktemp("replicas")
    master = EmbeddedRedis(root / "master", port=free_port(), appendfsync="everysec").start()
    replica = EmbeddedRedis(  # fsyncs every write: a WAITAOF need not wait a second
        root / "replica", port=free_port(), appendfsync="always", replica_of=master
    )
    try:
        replica.start().in_sync()
        yield master, replica
    finally:
        replica.stop()
        master.stop()


@pytest.fixture
def replicated(replica_pair):
    """The pair emptied (FLUSHALL on the master, the replica caught up and running)."""
    master, replica = replica_pair
    replica.resume()
    client = redis.Redis.from_url(master.url)
    client.flushall()
    client.close()
    replica.in_sync()
    yield master, replica
    replica.resume()


@pytest.fixture
def redis_url(redis_server):
    """The server's URL, with every key flushed before the test (but the secrets a module's
    shared API server holds: `shared_server`)."""
    client = redis.Redis.from_url(redis_server.url)
    client.flushall()
    if SHARED_SECRETS:
        client.mset(SHARED_SECRETS)
    client.close()
    return redis_server.url


@pytest.fixture
def r(redis_url):
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()


@pytest.fixture
def app(redis_url):
    return create_app({**TEST_CONFIG, "REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url})


@pytest.fixture
def client(app):
    return app.test_client()


# Tests play many games quickly from one address: limits are tested on their own app.
TEST_CONFIG = {
    "RATE_LIMIT_ANON": "100000/minute",
    "RATE_LIMIT_TOKEN": "100000/minute",
    "WAITING_GAMES_PER_PLAYER": 100000,  # the cap: tests/api/test_waiting_games.py
    "INVITES_PER_HOUR": 100000,  # the limits: tests/api/test_invitation_limits.py
    "INVITES_PER_TARGET": 100000,
    "CLAIM_MIN_S": 1,  # claims a second after the last move: the floor is tests/api/test_claims.py
    # a seat that never reveals its secret holds a full table up this long (worker-run
    # tests); a page or bot at the table reveals at once (tests/api/test_seat_seeds.py)
    "SEED_REVEAL_S": 2,
    "SSE_HEARTBEAT_S": 1,
    # a turn's notification is planned this long after the note (by the app that writes
    # it), and sent if still unseen: no longer than the workers' tests give theirs
    "NOTIFY_LIVE_DELAY_S": 1,
    # the service's signing keys: one directory for every app and process of the run
    "SIGNING_KEY_DIR": tempfile.mkdtemp(prefix="marketfold-keys-"),
    # webhooks and push endpoints on this machine: the tests' receivers are on loopback
    "OUTBOUND_ALLOW": "127.0.0.0/8",
    "VAPID_KEY_DIR": tempfile.mkdtemp(prefix="marketfold-vapid-"),
}


def _env(redis_url: str) -> dict[str, str]:
    settings = {f"MARKETFOLD_{k}": str(v) for k, v in TEST_CONFIG.items()}
    return {**os.environ, **settings, "REDIS_URL": redis_url, "PYTHONPATH": str(ROOT)}


def kill_group(proc: subprocess.Popen) -> None:
    """kill -9 a process and everything it started (RQ forks its scheduler), as a crash."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait()


@pytest.fixture
def worker_process(redis_url):
    """Start real `marketfold worker` processes; all are killed after the test. With
    `pause` (a path), the worker stops right before each append while that file exists
    (tests/paused_worker.py)."""
    procs: list[subprocess.Popen] = []

    def start(pause: Path | None = None, **env: str) -> subprocess.Popen:
        command = ["-m", "cli", "worker"] if pause is None else ["-m", "tests.paused_worker"]
        proc = subprocess.Popen(
            [sys.executable, *command, *([str(pause)] if pause is not None else [])],
            env={**_env(redis_url), **env},
            cwd=ROOT,
            start_new_session=True,
        )
        procs.append(proc)
        return proc

    yield start
    for proc in procs:
        kill_group(proc)


def gunicorn_args(port: int, log_level: str = "warning", processes: int = 2) -> list[str]:
    """Return the arguments (after the interpreter) that serve the API exactly as
    `marketfold serve` does, on a loopback port."""
    return gunicorn_argv(port=port, log_level=log_level, processes=processes)[1:]


@contextlib.contextmanager
def api_server(redis_url: str, processes: int = 2, **env: str):
    """Serve the API as `marketfold serve --http-workers <processes>` does on a free port,
    with extra `MARKETFOLD_*` settings; yield (base URL, port). Tests of limits counted per
    API process (api.uploads, api.offload) serve it with one process, which makes them exact."""
    port = free_port()
    argv = [sys.executable, *gunicorn_args(port, processes=processes)]
    proc = subprocess.Popen(argv, env={**_env(redis_url), **env}, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    background.SERVED.add(base)
    try:
        for _ in range(300):
            try:
                requests.get(base + "/healthz", timeout=5)
                break
            except requests.RequestException:
                time.sleep(0.05)
        yield base, port
    finally:
        background.stop_all()  # the bots a test left playing, while they can still stop
        proc.terminate()
        proc.wait(15)


@pytest.fixture
def live_server(redis_url):
    """The API under gunicorn on a free port; yields its base URL."""
    with api_server(redis_url) as (base, _):
        yield base


# What a long-lived API process reads from Redis once and keeps: the lobby's cursor key
# (service.lobby) and the secret of the links in e-mails (stores/link_key.py). While a
# module's shared server runs, `redis_url` writes them back after each flush, so that the
# server, the test's own app and its workers keep agreeing on them. Everything else such a
# process keeps is read again from Redis, or is keyed by random ids (games, players,
# tokens) that no later test meets again; FLUSHALL leaves Lua scripts loaded.
SHARED_SECRETS: dict[str, bytes] = {}


@pytest.fixture(scope="module")
def module_server(redis_server):
    """One API server (as `live_server`) for every test of a module that asks for
    `shared_server`: each test still starts on an empty store."""
    SHARED_SECRETS.update(
        {
            keys.lobby_cursor_key(): os.urandom(32),
            notify_keys.notify_secret(): os.urandom(32).hex().encode(),
        }
    )
    client = redis.Redis.from_url(redis_server.url)
    client.mset(SHARED_SECRETS)
    client.close()
    try:
        with api_server(redis_server.url) as (base, _):
            yield base
    finally:
        SHARED_SECRETS.clear()


@pytest.fixture
def shared_server(module_server, redis_url):
    """The module's API server, started once for all its tests (saves a gunicorn start per
    test); yields its base URL, and stops the bots the test left playing."""
    yield module_server
    background.stop_all()


# Tests that start real processes are `slow`; those that kill them on purpose also `crash`
# (pyproject.toml declares both). `pytest -m "not slow and not crash"` is the fast loop.
SLOW_FIXTURES = {"worker_process", "live_server", "shared_server", "spawn", "crash_redis"}

# The unit tier (`pytest -m unit`) is every test that needs no Redis and starts no process:
# pure rules, league arithmetic, service code on in-memory ports. It is worked out from the
# fixtures a test uses (every fixture that reaches Redis goes through `redis_server`), so a
# new test joins it by needing nothing outside the process. A test that starts a process
# by itself, with no fixture, says so with `@pytest.mark.process`.
OUTSIDE_FIXTURES = {"redis_server", "replica_pair", "browser", "shared_browser", *SLOW_FIXTURES}
OUTSIDE_MARKS = ("slow", "crash", "process")


def pytest_collection_modifyitems(items):
    for item in items:
        if SLOW_FIXTURES & set(item.fixturenames):
            item.add_marker(pytest.mark.slow)
        if "/reliability/" in str(item.path) or "crash" in item.path.name:
            item.add_marker(pytest.mark.crash)
        outside = OUTSIDE_FIXTURES & set(item.fixturenames)
        if not outside and not any(item.get_closest_marker(m) for m in OUTSIDE_MARKS):
            item.add_marker(pytest.mark.unit)


def pytest_terminal_summary(terminalreporter):
    """The lab's fault counts (tests/lab/, recorded as `lab_counts`), shown after the run
    whether the tests passed or not (their printed output is captured)."""
    lines = [
        value
        for reports in terminalreporter.stats.values()
        for report in reports
        if getattr(report, "when", None) == "call"
        for key, value in getattr(report, "user_properties", ())
        if key == "lab_counts"
    ]
    if lines:
        terminalreporter.section('lab fault counts (docs/reliability.md, "Several hosts")')
        for line in lines:
            terminalreporter.line(line)

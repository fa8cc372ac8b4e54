"""`marketfold serve`: Redis (unless REDIS_URL), the queues' Redis (unless REDIS_URL or
RQ_REDIS_URL), the API under gunicorn and N workers, as supervised child processes (see
cli.supervisor)."""

from __future__ import annotations

import logging
import os
import resource
import shutil
import signal
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from cli.embedded import EmbeddedRedis
from cli.supervisor import Child, Supervisor, spawn
from service import config

logger = logging.getLogger("marketfold.serve")
GRACEFUL_S = 5  # gunicorn finishes requests in flight this long; streams end at once
# What gunicorn itself refuses before the app sees a request (answered as problem+json by
# cli.gunicorn_conf; docs/reliability.md, "Requests refused before the app"): gunicorn's
# defaults, said here so that they are written down once.
LIMIT_REQUEST_LINE = 4094  # bytes of "METHOD /path?query HTTP/1.1": 414 beyond
LIMIT_REQUEST_FIELDS = 100  # header fields: 431 beyond
LIMIT_REQUEST_FIELD_SIZE = 8190  # bytes of one header field: 431 beyond


def gunicorn_argv(
    host: str = "127.0.0.1",
    port: int = 8000,
    processes: int = 2,
    connections: int = 2000,
    log_level: str = "warning",
    app: str = "cli.wsgi:app",
) -> list[str]:
    """Return the command line that serves `app`: gunicorn with gevent workers, so a
    request waits on I/O without holding a thread and open event streams cost a greenlet
    each (docs/architecture.md, "Serving"). Tests and benchmarks use this same line."""
    return [
        sys.executable,
        "-m",
        "gunicorn",
        app,
        "--config",
        "python:cli.gunicorn_conf",
        "--bind",
        f"{host}:{port}",
        "--workers",
        str(processes),
        "--worker-class",
        "gevent",
        "--worker-connections",
        str(connections),
        "--graceful-timeout",
        str(GRACEFUL_S),
        "--log-level",
        log_level,
        "--limit-request-line",
        str(LIMIT_REQUEST_LINE),
        "--limit-request-fields",
        str(LIMIT_REQUEST_FIELDS),
        "--limit-request-field_size",
        str(LIMIT_REQUEST_FIELD_SIZE),
    ]


def raise_open_files_limit(want: int = 65536) -> None:
    """Raise this process's soft limit on open files (children inherit it): every open
    stream is a client socket, and a Redis connection while it waits."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


@dataclass
class Stack:
    """The whole service; `start()` it, call `check()` often, `stop()` it once."""

    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: str | Path = "./.marketfold"
    http_workers: int = 2
    connections: int = 2000
    appendfsync: str = "always"
    workers: int = 1
    env: dict[str, str] = field(default_factory=lambda: dict(os.environ))
    redis: EmbeddedRedis | None = None
    queues: EmbeddedRedis | None = None
    supervisor: Supervisor = field(default_factory=Supervisor)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> Stack:
        """Start every process, the embedded Redis first; raise AlreadyRunning if its data
        directory is in use by a live server."""
        raise_open_files_limit()
        # every child gets absolute paths: the API's helper processes (api/offload.py) run in
        # the code's directory, so a relative data directory would be another one for them
        self.data_dir = Path(self.data_dir).resolve()
        sup = self.supervisor
        for keys, sub in (("SIGNING_KEY_DIR", "keys"), ("VAPID_KEY_DIR", "vapid")):
            if keys not in self.env and f"MARKETFOLD_{keys}" not in self.env:
                # service/keyring.py; service/notify/push.py
                self.env[keys] = str(Path(self.data_dir) / sub)
        if "PROMETHEUS_MULTIPROC_DIR" not in self.env:  # every child's figures (service/metrics.py)
            self.env["PROMETHEUS_MULTIPROC_DIR"] = str(metrics_dir(Path(self.data_dir)))
        if not self.setting("REDIS_URL"):
            self.redis = EmbeddedRedis(self.data_dir, appendfsync=self.appendfsync)
            self.env["REDIS_URL"] = self.redis.url
            sup.add(Child("redis", lambda: self.redis.start().process, store=True))
            if not self.setting("RQ_REDIS_URL"):
                self._start_queues()
        argv = gunicorn_argv(self.host, self.port, self.http_workers, self.connections)
        sup.add(Child("api", lambda: spawn(argv, self.env)))
        for i in range(1, self.workers + 1):
            worker = [sys.executable, "-m", "cli", "worker"]
            sup.add(Child(f"worker-{i}", lambda argv=worker: spawn(argv, self.env)))
        sup.start()
        return self

    def setting(self, name: str) -> str | None:
        """A setting as the service will read it (service.config.raw)."""
        return config.raw(self.env, name) or None

    def _start_queues(self) -> None:
        """The RQ queues on a Valkey of their own, fsynced once a second (docs/workers.md,
        "Under load"): a job is re-derived from the deadline index in the store (a sweeper
        queues it again when its claim lapses), so a queue that loses its last second in a
        crash loses no work, and RQ's writes (several per job) are not fsynced one by one
        beside every action's."""
        self.queues = EmbeddedRedis(Path(self.data_dir) / "queues", appendfsync="everysec")
        self.env["RQ_REDIS_URL"] = self.queues.url
        self.supervisor.add(Child("queues", lambda: self.queues.start().process, store=True))

    def wait_ready(self, timeout: float = 30.0) -> None:
        """Wait until the API answers its health check."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as res:
                    if res.status == 200:
                        return
            except OSError:
                pass
            self.check()
            if time.monotonic() > deadline:
                raise RuntimeError("the service did not start")
            time.sleep(0.05)

    def check(self) -> None:
        """Restart whatever died."""
        self.supervisor.check()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the workers and the API, then the queues, then Redis last, within about
        `timeout` s."""
        self.supervisor.stop(timeout)


def metrics_dir(data_dir: Path) -> Path:
    """Return a fresh directory for this run's figures, `<data>/metrics/<pid>`, removing
    those of runs that have ended: counters start again at each start, and a second
    `serve` refused for a data directory in use leaves the first one's figures alone."""
    root = data_dir / "metrics"
    for old in root.glob("*"):
        try:
            os.kill(int(old.name), 0)
        except (ValueError, ProcessLookupError):
            shutil.rmtree(old, ignore_errors=True)
        except PermissionError:  # alive, someone else's
            pass
    mine = root / str(os.getpid())
    shutil.rmtree(mine, ignore_errors=True)
    mine.mkdir(parents=True)
    return mine


def run(stack: Stack) -> None:
    """Run `stack` in the foreground until SIGINT or SIGTERM; then stop it, bounded,
    whatever further signals arrive (they are noted and ignored)."""
    signals: list[int] = []
    previous = {s: signal.signal(s, lambda n, _: signals.append(n)) for s in STOP_SIGNALS}
    try:
        while not signals:
            stack.check()
            time.sleep(0.2)
        logger.info("stopping (%s)", signal.Signals(signals[0]).name)
        stack.stop()
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

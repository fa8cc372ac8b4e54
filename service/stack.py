"""The whole service as child processes: Redis (unless REDIS_URL), gunicorn and a worker."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import requests

from service.embedded import EmbeddedRedis


@dataclass
class Stack:
    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: str | Path = "./.marketfold"
    http_workers: int = 2
    threads: int = 8
    appendfsync: str = "always"
    workers: int = 1
    env: dict[str, str] = field(default_factory=lambda: dict(os.environ))
    redis: EmbeddedRedis | None = None
    procs: list[subprocess.Popen] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> Stack:
        """Start every process (the embedded Redis first); raise AlreadyRunning if its data
        directory is in use by a live server."""
        if not self.env.get("REDIS_URL"):
            self.redis = EmbeddedRedis(self.data_dir, appendfsync=self.appendfsync).start()
            self.env["REDIS_URL"] = self.redis.url
        self.procs.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "service.wsgi:app",
                    "--bind",
                    f"{self.host}:{self.port}",
                    "--workers",
                    str(self.http_workers),
                    "--worker-class",
                    "gthread",
                    "--threads",
                    str(self.threads),
                    "--graceful-timeout",
                    "5",
                    "--log-level",
                    "warning",
                ],
                env=self.env,
            )
        )
        for _ in range(self.workers):
            self.procs.append(
                subprocess.Popen([sys.executable, "-m", "service.cli", "worker"], env=self.env)
            )
        return self

    def wait_ready(self, timeout: float = 30.0) -> None:
        """Wait until the API answers its health check."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                if requests.get(self.url + "/healthz", timeout=1).ok:
                    return
            except requests.RequestException:
                pass
            if time.monotonic() > deadline or not self.alive():
                raise RuntimeError("the service did not start")
            time.sleep(0.05)

    def alive(self) -> bool:
        """Return True while every child process runs."""
        return all(p.poll() is None for p in self.procs)

    def stop(self) -> None:
        """Stop the workers and the API with SIGTERM, then Redis last."""
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        if self.redis:
            self.redis.stop()

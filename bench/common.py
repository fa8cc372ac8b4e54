"""Helpers shared by the benchmarks: starting gunicorn, waiting, percentiles."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent


def gunicorn(app: str, port: int, redis_url: str, workers: int = 2, threads: int = 8):
    """Start `app` under gunicorn (gthread) on a loopback port, as `marketfold serve` does."""
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "PYTHONPATH": str(ROOT),
        # the load comes from one address: lift the per-IP and per-token limits
        "MARKETFOLD_RATE_LIMIT_ANON": "10000000/minute",
        "MARKETFOLD_RATE_LIMIT_TOKEN": "10000000/minute",
    }
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            app,
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--worker-class",
            "gthread",
            "--threads",
            str(threads),
            "--log-level",
            "warning",
        ],
        env=env,
        cwd=ROOT,
    )


def wait_up(url: str, timeout: float = 20.0) -> None:
    """Wait until `url` answers."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            requests.get(url, timeout=1)
            return
        except requests.RequestException:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def percentile(values: list[float], p: float) -> float:
    """Return the p-th percentile (nearest rank) of `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]

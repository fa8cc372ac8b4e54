"""The benchmarks' two servers boot on the service's gunicorn configuration and answer:
marketfold's API and the bare endpoint it is compared with (bench/moves/actions.py)."""

from __future__ import annotations

import pytest
import requests

from bench.common import gunicorn, stop
from cli.embedded import free_port
from tests.support.waiting import wait_up


@pytest.mark.slow
def test_the_api_and_the_bare_endpoint_serve_under_the_benchmarks_gunicorn(redis_url):
    port, bare_port = free_port(), free_port()
    procs = [
        gunicorn("cli.wsgi:app", port, redis_url),
        gunicorn("bench.moves.bare_app:app", bare_port, redis_url),
    ]
    try:
        for url in (f"http://127.0.0.1:{port}/healthz", f"http://127.0.0.1:{bare_port}/healthz"):
            wait_up(url)
            assert requests.get(url, timeout=5).status_code == 200
        bare = f"http://127.0.0.1:{bare_port}"
        assert requests.post(f"{bare}/xadd/t", json={"n": 1}, timeout=5).status_code == 201
        assert requests.get(f"{bare}/last/t", timeout=5).json()["last"]
    finally:
        stop(procs)

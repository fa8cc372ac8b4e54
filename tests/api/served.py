"""The API served as `marketfold serve --http-workers N` serves it, for tests whose limits
count per API process (api.uploads, api.offload): one process makes them exact."""

from __future__ import annotations

import contextlib
import subprocess
import time

import requests

from cli.embedded import free_port
from cli.serve import gunicorn_argv
from tests.conftest import ROOT, _env


@contextlib.contextmanager
def served(redis_url: str, processes: int = 1, **env: str):
    """Yield (base URL, port) of gunicorn serving the API with `MARKETFOLD_*` settings."""
    port = free_port()
    argv = gunicorn_argv(port=port, processes=processes)
    proc = subprocess.Popen(argv, env={**_env(redis_url), **env}, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                requests.get(base + "/healthz", timeout=5)
                break
            except requests.RequestException:
                time.sleep(0.05)
        yield base, port
    finally:
        proc.terminate()
        proc.wait(15)

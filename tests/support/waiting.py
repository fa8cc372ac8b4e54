"""The one way a test (or a benchmark) waits for something another process does: poll,
never sleep blind."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

import requests

T = TypeVar("T")


def wait_for(
    predicate: Callable[[], T],
    timeout: float = 30.0,
    every: float = 0.02,
    what: str | Callable[[], str] = "",
) -> T:
    """Return predicate()'s first truthy value, polling every `every` seconds; fail after
    `timeout` seconds, naming `what` it waited for (a callable is asked at the time, so
    the message can tell how far things got)."""
    deadline = time.monotonic() + timeout
    while True:
        if value := predicate():
            return value
        if time.monotonic() >= deadline:
            said = what() if callable(what) else what
            raise AssertionError(f"timed out waiting{f' for {said}' if said else ''}")
        time.sleep(every)


def timed_wait(
    what: str, ready: Callable[[], object], timeout: float = 30.0, every: float = 0.1
) -> float:
    """Wait until `ready()` (polling every `every` seconds); return the seconds it took."""
    start = time.monotonic()
    wait_for(ready, timeout, every=every, what=what)
    return time.monotonic() - start


def answers(url: str) -> bool:
    """Whether a GET of `url` answers 200 now (a refused or cut connection: not yet). The
    first answer of a gunicorn worker waits for it to load the app: seconds on a busy machine."""
    try:
        return requests.get(url, timeout=5).status_code == 200
    except requests.RequestException:
        return False


def wait_up(url: str, timeout: float = 30.0) -> None:
    """Wait until a GET of `url` (a /healthz) answers 200."""
    wait_for(lambda: answers(url), timeout, every=0.05, what=f"{url} to answer")

"""The one way a test waits for something another process does: poll, never sleep blind."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_for(
    predicate: Callable[[], T], timeout: float = 30.0, every: float = 0.02, what: str = ""
) -> T:
    """Return predicate()'s first truthy value, polling every `every` seconds; fail after
    `timeout` seconds (naming `what` it waited for)."""
    deadline = time.monotonic() + timeout
    while True:
        if value := predicate():
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out waiting{f' for {what}' if what else ''}")
        time.sleep(every)


def timed_wait(what: str, ready: Callable[[], object], timeout: float = 30.0) -> float:
    """Wait until `ready()` (polling every 0.1 s); return the seconds it took."""
    start = time.monotonic()
    wait_for(ready, timeout, every=0.1, what=what)
    return time.monotonic() - start

"""What an append may refuse, raised by every recorder (`events.recorder`,
`events.memory_recorder`): a stale version, a used idempotency key, a guard's checks."""

from __future__ import annotations


class StaleVersion(Exception):
    """The stream moved on since the caller loaded it."""

    def __init__(self, expected: int, actual: int):
        super().__init__(f"expected version {expected}, the game is at {actual}")
        self.expected = expected
        self.actual = actual


class Duplicate(Exception):
    """The idempotency key was used before; `stored` is the first call's result."""

    def __init__(self, stored: str):
        super().__init__("idempotency key already used")
        self.stored = stored


class GuardFailed(Exception):
    """A guarded append's checks failed (or the recorder cannot run guards): nothing was
    run or written."""


class GuardRefused(Exception):
    """A guarded append's guard refused the write after its checks passed: nothing was
    written (the guard was told its figures)."""

"""Auditable randomness: every draw is HMAC-SHA256 of the game's secret seed and a counter.

Draw k is the 256-bit big-endian integer HMAC-SHA256(key=seed, msg="marketfold:draw:<k>"),
k written in decimal ASCII. `below(n)` keeps drawing until a value falls under the
largest multiple of n that fits in 2**256, then returns it modulo n. `shuffle` is
Fisher-Yates from the last position down. docs/fairness.md has test vectors.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
SPACE = 1 << 256


def commitment(game_id: str, seed: bytes) -> str:
    """Return the seed's commitment, bound to its game: hex SHA-256 of the game id's UTF-8
    bytes immediately followed by the 32 seed bytes."""
    return hashlib.sha256(game_id.encode("utf-8") + seed).hexdigest()


def draw(seed: bytes, k: int) -> int:
    """Return draw number `k` of `seed` as an integer in [0, 2**256)."""
    mac = hmac.new(seed, b"marketfold:draw:" + str(k).encode("ascii"), hashlib.sha256)
    return int.from_bytes(mac.digest(), "big")


class Rng:
    """A counter over the seed's draws; `counter` is the next draw's number."""

    def __init__(self, seed: bytes, counter: int = 0):
        self.seed = seed
        self.counter = counter

    def below(self, n: int) -> int:
        """Return a uniform integer in [0, n)."""
        if n < 1:
            raise ValueError("n must be at least 1")
        limit = SPACE - SPACE % n
        while True:
            value = draw(self.seed, self.counter)
            self.counter += 1
            if value < limit:
                return value % n

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """Return a shuffled copy of `items` (Fisher-Yates, i from len-1 down to 1)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def choice(self, items: Sequence[T]) -> T:
        """Return one of `items`, uniformly."""
        return items[self.below(len(items))]


class NoRng(Rng):
    """For replays and actions that must not draw: any draw is a bug."""

    def __init__(self) -> None:
        super().__init__(b"", 0)

    def below(self, n: int) -> int:
        raise RuntimeError("this step may not draw randomness")

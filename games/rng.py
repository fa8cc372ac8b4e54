"""Auditable randomness: every draw is HMAC-SHA256 of the game's secret seed and a counter.

Draw k is the 256-bit big-endian integer HMAC-SHA256(key=seed, msg="marketfold:draw:<k>"),
k written in decimal ASCII. Under seed rule 2 the key is not the server's seed itself but
`combine(server seed, game id, every seat's revealed secret)` (docs/fairness.md, "Seats'
randomness"). `below(n)` keeps drawing until a value falls under the
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


SEAT_SECRET_BYTES = 32
SEED_RULE = 2  # the rule new games are created under; rule 1: the server's seed alone


def seat_commitment(secret: bytes) -> str:
    """Return a seat's commitment to its secret: the lowercase hex SHA-256 of its bytes."""
    return hashlib.sha256(secret).hexdigest()


def combine(seed: bytes, game_id: str, reveals: Sequence[str | None]) -> bytes:
    """Return the draw key of a rule-2 game: HMAC-SHA256 keyed with the server's seed over
    "marketfold:seed:2", the game id and each seat's revealed secret (lowercase hex, or the
    empty string for a seat that contributed nothing), seats in seat order, joined by
    line feeds."""
    lines = ["marketfold:seed:2", game_id, *(r or "" for r in reveals)]
    return hmac.new(seed, "\n".join(lines).encode("utf-8"), hashlib.sha256).digest()


def draw(seed: bytes, k: int) -> int:
    """Return draw number `k` of `seed` as an integer in [0, 2**256)."""
    mac = hmac.new(seed, b"marketfold:draw:" + str(k).encode("ascii"), hashlib.sha256)
    return int.from_bytes(mac.digest(), "big")


class Rng:
    """A counter over the seed's draws; `counter` is the next draw's number."""

    def __init__(self, seed: bytes, counter: int = 0):
        self.seed = seed
        self.counter = counter

    def rekey(self, seed: bytes) -> None:
        """Draw from `seed` from now on (a rule-2 game, once its seats' secrets are in)."""
        self.seed = seed

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

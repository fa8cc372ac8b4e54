"""Goods as counts per colour (a tuple of six ints, colour index order) and their conversions.

Actions name goods as a list of colour ids (["red", "red", "blue"]); events and views use
objects {colour: count}. Both become the same count tuple here.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

from games.black_market.data import COLOURS

Counts = tuple[int, ...]
N = len(COLOURS)
ZERO: Counts = (0,) * N
INDEX = {c: i for i, c in enumerate(COLOURS)}


def add(a: Counts, b: Counts) -> Counts:
    """Return a + b, colour by colour (folded for every trade: kept cheap)."""
    if len(a) != len(b):
        raise ValueError("goods counts of different lengths")
    return tuple(map(operator.add, a, b))


def sub(a: Counts, b: Counts) -> Counts:
    """Return a - b, colour by colour."""
    if len(a) != len(b):
        raise ValueError("goods counts of different lengths")
    return tuple(map(operator.sub, a, b))


def covers(have: Counts, want: Counts) -> bool:
    """Return True if `have` holds at least `want` of every colour."""
    return all(h >= w for h, w in zip(have, want, strict=True))


def one(colour: int, count: int = 1) -> Counts:
    """Return `count` goods of colour index `colour`."""
    return tuple(count if i == colour else 0 for i in range(N))


def from_names(names: Iterable[str]) -> Counts:
    """Return the counts of a list of colour ids (ids must be valid)."""
    out = [0] * N
    for name in names:
        out[INDEX[name]] += 1
    return tuple(out)


def names(counts: Counts) -> list[str]:
    """Return goods as a list of colour ids, in colour order."""
    return [COLOURS[i] for i, n in enumerate(counts) for _ in range(n)]


def to_json(counts: Counts, full: bool = False) -> dict[str, int]:
    """Return {colour: count}; only colours present unless `full`."""
    return {c: n for c, n in zip(COLOURS, counts, strict=True) if full or n}


def from_json(data: dict[str, Any]) -> Counts:
    """Return counts from {colour: count} (missing colours are 0)."""
    get = data.get
    return tuple([int(get(c, 0)) for c in COLOURS])


@cache
def sub_multisets(holdings: Counts, lo: int, hi: int) -> tuple[Counts, ...]:
    """Return every selection of `lo`..`hi` goods out of `holdings`, smallest first."""
    found: list[Counts] = []

    def walk(i: int, picked: tuple[int, ...], size: int) -> None:
        if i == N:
            if lo <= size:
                found.append(picked)
            return
        for k in range(min(holdings[i], hi - size) + 1):
            walk(i + 1, (*picked, k), size + k)

    walk(0, (), 0)
    return tuple(sorted(found, key=lambda c: (sum(c), names(c))))


def selections(holdings: Counts) -> Iterator[Counts]:
    """Yield every non-empty selection of goods out of `holdings`, lazily: the smallest
    first, then more of the lower colour index first (a caller may stop at any count)."""
    room = [sum(holdings[i:]) for i in range(N + 1)]

    def walk(i: int, left: int) -> Iterator[tuple[int, ...]]:
        if i == N:
            yield ()
            return
        for k in range(min(holdings[i], left), max(0, left - room[i + 1]) - 1, -1):
            for rest in walk(i + 1, left - k):
                yield (k, *rest)

    for size in range(1, room[0] + 1):
        yield from walk(0, size)


@cache
def name_lists(holdings: Counts, lo: int, hi: int) -> tuple[tuple[str, ...], ...]:
    """Return `sub_multisets` as lists of colour ids, for schema enums."""
    return tuple(tuple(names(c)) for c in sub_multisets(holdings, lo, hi))


def shed(holdings: Counts, count: int) -> Counts:
    """Return the `count` goods our default gives up: one at a time from the most numerous
    colour, the lowest colour index first on a tie."""
    left = list(holdings)
    gone = [0] * N
    for _ in range(min(count, sum(left))):
        i = max(range(N), key=lambda j: (left[j], -j))
        left[i] -= 1
        gone[i] += 1
    return tuple(gone)


def sources(production: Counts, storage: Counts, wanted: Counts) -> tuple[Counts, Counts]:
    """Split `wanted` into (from production, from storage): production first."""
    from_production = tuple(min(p, w) for p, w in zip(production, wanted, strict=True))
    return from_production, sub(wanted, from_production)

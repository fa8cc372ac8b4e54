"""Every deal two players can make, listed as `choices` when there are few.

A deal gives at least one good the seat holds for at least one good its partner holds
(no other size limit). Its `take` is bounded by what one partner holds, so the listed
deals are those some partner could meet (the schema, capping each colour separately,
also admits a `take` that no single partner holds, which decide accepts and nobody can
meet). The deals are counted first, without listing them (a product per holding, and
inclusion-exclusion over the partners), and listed only when at most MAX_CHOICES, so a
seat holding many goods costs `legal` no more than one holding few.
"""

from __future__ import annotations

from itertools import combinations
from math import prod
from typing import Any

from games.base import Seat
from games.archive.black_market_v2 import goods
from games.archive.black_market_v2.goods import Counts
from games.archive.black_market_v2.state import State, tradeable
from games.archive.black_market_v2.shared.kit import MAX_CHOICES


def count(held: Counts) -> int:
    """Return how many non-empty selections of goods `held` allows."""
    return prod(n + 1 for n in held) - 1


def count_any(holdings: list[Counts]) -> int:
    """Return how many non-empty selections fit within at least one of `holdings` (the
    selections fitting within several of them fit within their colour-wise minimum)."""
    total = 0
    for k in range(1, len(holdings) + 1):
        for group in combinations(holdings, k):
            total += (-1) ** (k + 1) * count(tuple(map(min, zip(*group))))
    return total


def _any_of(holdings: list[Counts]) -> list[Counts]:
    """Return every selection within one of `holdings`, smallest first."""
    seen = dict.fromkeys(c for held in holdings for c in goods.selections(held))
    return sorted(seen, key=lambda c: (sum(c), [-n for n in c]))


def _deal(kind: str, give: Counts, take: Counts, **more: Any) -> dict[str, Any]:
    return {"type": kind, **more, "give": goods.names(give), "take": goods.names(take)}


def proposals(state: State, seat: Seat, partners: list[Seat]) -> list[dict[str, Any]] | None:
    """Return every regulated deal `seat` can propose that one of `partners` could meet,
    or None when there are more than MAX_CHOICES."""
    held = tradeable(state, seat)
    if count(held) > MAX_CHOICES:
        return None
    theirs = [tradeable(state, p) for p in partners]
    if count(held) * count_any(theirs) > MAX_CHOICES:
        return None
    takes = _any_of(theirs)
    return [_deal("propose", g, t) for g in goods.selections(held) for t in takes]


def offers(state: State, seat: Seat, partners: list[Seat]) -> list[dict[str, Any]] | None:
    """Return every wild offer `seat` can make to one of `partners` for goods that partner
    holds, or None when there are more than MAX_CHOICES."""
    held = tradeable(state, seat)
    if count(held) * sum(count(tradeable(state, p)) for p in partners) > MAX_CHOICES:
        return None
    gives = list(goods.selections(held))
    return [
        _deal("offer", g, t, to=p)
        for p in partners
        for g in gives
        for t in goods.selections(tradeable(state, p))
    ]

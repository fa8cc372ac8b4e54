"""Every deal two players can make, listed as `choices` when there are few.

A deal gives at least one good the seat holds for at least one good its partner holds
(no other size limit). Its `take` is bounded by what one partner holds, so the listed
deals are those some partner could meet (the schema, capping each colour separately,
also admits a `take` that no single partner holds, which decide accepts and nobody can
meet). Selections are drawn lazily and counting stops past MAX_CHOICES, so a seat
holding many goods costs no more than one holding few.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

from games.base import Seat
from games.black_market import goods
from games.black_market.goods import Counts
from games.black_market.state import State, tradeable
from games.kit import MAX_CHOICES


def _few(items: Iterator[Counts]) -> list[Counts] | None:
    """Return `items` as a list, or None when there are more than MAX_CHOICES."""
    out = list(islice(items, MAX_CHOICES + 1))
    return out if len(out) <= MAX_CHOICES else None


def _any_of(holdings: Iterable[Counts]) -> list[Counts] | None:
    """Return every selection out of any one of `holdings` (smallest first), or None when
    there are more than MAX_CHOICES. Each holding's selections already seen are at most
    MAX_CHOICES, so the walk stops after a bounded number of steps."""
    seen: dict[Counts, None] = {}
    for held in holdings:
        for c in goods.selections(held):
            seen[c] = None
            if len(seen) > MAX_CHOICES:
                return None
    return sorted(seen, key=lambda c: (sum(c), [-n for n in c]))


def _deal(kind: str, give: Counts, take: Counts, **more: Any) -> dict[str, Any]:
    return {"type": kind, **more, "give": goods.names(give), "take": goods.names(take)}


def proposals(state: State, seat: Seat, partners: list[Seat]) -> list[dict[str, Any]] | None:
    """Return every regulated deal `seat` can propose that one of `partners` could meet,
    or None when there are more than MAX_CHOICES."""
    gives = _few(goods.selections(tradeable(state, seat)))
    takes = _any_of(tradeable(state, p) for p in partners) if gives else None
    if gives is None or takes is None or len(gives) * len(takes) > MAX_CHOICES:
        return None
    return [_deal("propose", g, t) for g in gives for t in takes]


def offers(state: State, seat: Seat, partners: list[Seat]) -> list[dict[str, Any]] | None:
    """Return every wild offer `seat` can make to one of `partners` for goods that partner
    holds, or None when there are more than MAX_CHOICES."""
    gives = _few(goods.selections(tradeable(state, seat)))
    if not gives:
        return None
    out = []
    for p in partners:
        takes = _few(goods.selections(tradeable(state, p)))
        if takes is None or len(out) + len(gives) * len(takes) > MAX_CHOICES:
            return None
        out += [_deal("offer", g, t, to=p) for g in gives for t in takes]
    return out

"""What a seat may do now: one JSON Schema per action type, and every choice when few.

Goods are lists of colour ids; where the legal lists are not independent per field (a
production of at most four goods, a bid of one colour), the schema carries the exact list
of legal values as an `enum`. A deal side may be any goods up to what a player holds: an
array whose `allOf` caps each colour with `maxContains`; the deals themselves are listed
when few (games.black_market.deals).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from games.base import ActionSpec, Seat
from games.black_market import deals, goods
from games.black_market.actions import owed
from games.black_market.data import COLOURS, MAX_ROW, MIN_ROW
from games.black_market.goods import Counts
from games.black_market.selling import best_sale
from games.black_market.state import (
    ANSWER,
    BID,
    DISCARD,
    GIVE_BACK,
    PICK,
    PRODUCE,
    PROPOSE,
    RAISE,
    SELL,
    SHIFT,
    WILD,
    State,
    give_back_count,
    production_limit,
    storage_limit,
    tradeable,
    wildcards,
)
from games.black_market.wild import feasible, trading
from games.kit import MAX_CHOICES, due, one_of, pick, plain, schema


def goods_schema(options: tuple[tuple[str, ...], ...], lo: int, hi: int) -> dict[str, Any]:
    """Return the schema of a goods list whose legal values are exactly `options`."""
    return {
        "type": "array",
        "items": {"type": "string", "enum": list(COLOURS)},
        "minItems": lo,
        "maxItems": hi,
        "enum": [list(o) for o in options],
    }


def _spec(kind: str, field: str, options: tuple[tuple[str, ...], ...], lo: int, hi: int):
    choices = None
    if len(options) <= MAX_CHOICES:
        choices = [{"type": kind, field: list(o)} for o in options]
    return ActionSpec(kind, schema(kind, **{field: goods_schema(options, lo, hi)}), choices)


@cache
def productions(limit: int, wild: int) -> tuple[tuple[str, ...], ...]:
    """Return every legal production for a limit and a number of white discs."""
    every = goods.sub_multisets((1 + wild,) * goods.N, 0, limit)
    return tuple(tuple(goods.names(c)) for c in every if sum(max(0, n - 1) for n in c) <= wild)


def _exact(held: Counts, count: int) -> tuple[tuple[str, ...], ...]:
    return goods.name_lists(held, count, count)


def _produce(state: State, seat: Seat) -> list[ActionSpec]:
    limit = production_limit(state, seat)
    return [_spec("produce", "goods", productions(limit, wildcards(state, seat)), 0, limit)]


def bounded_goods(limits: Counts) -> dict[str, Any]:
    """Return the schema of a non-empty goods list holding at most `limits` of each colour."""
    present = [(COLOURS[i], n) for i, n in enumerate(limits) if n]
    return {
        "type": "array",
        "items": {"type": "string", "enum": [c for c, _ in present]},
        "minItems": 1,
        "maxItems": sum(limits),
        "allOf": [
            {"contains": {"const": c}, "minContains": 0, "maxContains": n} for c, n in present
        ],
    }


def _deal_props(state: State, seat: Seat, partners: list[Seat]) -> dict[str, Any]:
    """Return the fields of a deal: any goods `seat` can trade for any goods one of
    `partners` could trade (no size limit beyond what the players hold)."""
    most = tuple(map(max, zip(*(tradeable(state, p) for p in partners))))
    return {"give": bounded_goods(tradeable(state, seat)), "take": bounded_goods(most)}


def _propose(state: State, seat: Seat) -> list[ActionSpec]:
    others = [s for s in state.seats if s != seat and sum(tradeable(state, s))]
    if not sum(tradeable(state, seat)) or not others:
        return [plain("pass")]
    props = _deal_props(state, seat, others)
    choices = deals.proposals(state, seat, others)
    return [ActionSpec("propose", schema("propose", **props), choices), plain("pass")]


def _wild(state: State, seat: Seat) -> list[ActionSpec]:
    specs = []
    partners = [s for s in trading(state) if s != seat and sum(tradeable(state, s))]
    if partners and sum(tradeable(state, seat)):
        to = {"type": "integer", "enum": partners}
        props = _deal_props(state, seat, partners)
        choices = deals.offers(state, seat, partners)
        specs.append(ActionSpec("offer", schema("offer", to=to, **props), choices))
    mine = [o for o in state.offers if o.to == seat]
    specs += pick("accept", "offer", [o.id for o in mine if feasible(state, o)])
    specs += pick("decline", "offer", [o.id for o in mine])
    specs += pick("withdraw", "offer", [o.id for o in state.offers if o.frm == seat])
    return [*specs, plain("done")]


def _bid(state: State, seat: Seat) -> list[ActionSpec]:
    held = state.storage[seat]
    options = [()] + [(COLOURS[c],) * k for c in range(goods.N) for k in range(1, held[c] + 1)]
    return [_spec("bid", "goods", tuple(options), 0, max(held))]


def _sell(state: State, seat: Seat) -> list[ActionSpec]:
    best = best_sale(state, seat)
    props = {c: {"type": "integer", "minimum": 0, "maximum": m} for c, m in zip(COLOURS, best)}
    # a colour left out sells nothing (decide reads it as 0), so none is required
    vp = {"type": "object", "properties": props, "additionalProperties": False}
    count = 1
    for m in best:
        count *= m + 1
    choices = None
    if count <= MAX_CHOICES:
        choices = [{"type": "sell", "vp": dict(zip(COLOURS, c))} for c in _grid(best)]
    return [ActionSpec("sell", schema("sell", vp=vp), choices)]


def _grid(best: Counts) -> list[Counts]:
    out: list[Counts] = [()]
    for m in best:
        out = [(*c, k) for c in out for k in range(m + 1)]
    return out


def _raise(state: State, seat: Seat) -> list[ActionSpec]:
    prop = {"type": "string", "enum": list(COLOURS)}
    choices = [{"type": "raise", "colour": c} for c in COLOURS]
    return [
        ActionSpec("raise", schema("raise", colour=prop), choices),
        plain("pass"),
    ]


def _shift(state: State, seat: Seat) -> list[ActionSpec]:
    moves: dict[str, list[str]] = {}
    for c, row in zip(COLOURS, state.rows):
        for direction, to in (("up", row + 1), ("down", row - 1)):
            if MIN_ROW <= to <= MAX_ROW:
                moves.setdefault(c, []).append(direction)
    choices = [
        {"type": "shift", "colour": c, "direction": d} for c, ds in moves.items() for d in ds
    ]
    by_directions: dict[tuple[str, ...], list[str]] = {}
    for c, ds in moves.items():
        by_directions.setdefault(tuple(ds), []).append(c)
    branches = [
        {
            "colour": {"type": "string", "enum": colours},
            "direction": {"type": "string", "enum": list(ds)},
        }
        for ds, colours in by_directions.items()
    ]
    return [ActionSpec("shift", one_of("shift", branches), choices), plain("pass")]


def _give_back(state: State, seat: Seat) -> list[ActionSpec]:
    count = give_back_count(state, seat)
    return [_spec("give_back", "goods", _exact(state.production[seat], count), count, count)]


def _discard(state: State, seat: Seat) -> list[ActionSpec]:
    count = sum(state.storage[seat]) - storage_limit(state, seat)
    return [_spec("discard", "goods", _exact(state.storage[seat], count), count, count)]


def _answer(state: State, seat: Seat) -> list[ActionSpec]:
    choices = [{"type": "answer", "accept": True}, {"type": "answer", "accept": False}]
    return [ActionSpec("answer", schema("answer", accept={"type": "boolean"}), choices)]


def _pick(state: State, seat: Seat) -> list[ActionSpec]:
    return pick("pick", "seat", list(state.acceptors))


SPECS = {
    PRODUCE: _produce,
    PROPOSE: _propose,
    ANSWER: _answer,
    PICK: _pick,
    WILD: _wild,
    GIVE_BACK: _give_back,
    BID: _bid,
    RAISE: _raise,
    SHIFT: _shift,
    SELL: _sell,
    DISCARD: _discard,
}


def legal(state: State | None, seat: Seat) -> list[ActionSpec]:
    """Return the actions `seat` may take now (empty when it owes nothing)."""
    if due(owed(state), seat) is None:
        return []
    return SPECS[state.phase](state, seat)

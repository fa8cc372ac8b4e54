"""Apply Black Market events to the state: no checks, no randomness, never fails.

Event data may come straight from JSON, so lists become tuples and goods objects become
count tuples here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from games.base import Event
from games.archive.black_market_v1 import goods
from games.archive.black_market_v1.data import COLOURS, cards
from games.archive.black_market_v1.events import EVENTS
from games.archive.black_market_v1.evolve_trade import TRADE_APPLY
from games.archive.black_market_v1.goods import ZERO, Counts, add, from_json, sub
from games.archive.black_market_v1.state import (
    BID,
    DISCARD,
    DISTRIBUTE,
    FINAL,
    NEXT_CARD,
    PRODUCE,
    RAISE,
    ROUND,
    SELL,
    SHIFT,
    TRADE,
    State,
    open_phase,
    set_seat,
)
from games.archive.black_market_v1.shared.catalog import Data, Handler, unchanged
from games.archive.black_market_v1.shared.kit import OVER, fold


def _colour_map(current: Counts, data: Data) -> Counts:
    return tuple(int(data.get(c, v)) for c, v in zip(COLOURS, current, strict=True))


def _started(state: State | None, d: Data) -> State:
    order = tuple(d["order"])
    n = len(order)
    return State(
        order=order,
        trade=d["trade"],
        supply_start=d["supply"],
        starter=order[0],
        production=(ZERO,) * n,
        storage=(ZERO,) * n,
        aside=(ZERO,) * n,
        vp=(ZERO,) * n,
        cards=((),) * n,
    )


def _rows_drawn(state: State, d: Data) -> State:
    return replace(state, rows=_colour_map(state.rows, d["rows"]))


def _steps_drawn(state: State, d: Data) -> State:
    return replace(state, steps=_colour_map(state.steps, d["steps"]))


def _dealt(state: State, d: Data) -> State:
    each = from_json(d["storage"])
    return replace(
        state,
        supply=from_json(d["supply"]),
        storage=tuple(add(s, each) for s in state.storage),
        phase=ROUND,
    )


def _shuffled(state: State, d: Data) -> State:
    return replace(state, deck=tuple(d["order"]))


def _card_revealed(state: State, d: Data) -> State:
    return replace(state, card=d["card"], deck=tuple(c for c in state.deck if c != d["card"]))


def _value_moved(state: State, d: Data) -> State:
    rows = _colour_map(state.rows, {d["colour"]: d["row"]})
    phase = NEXT_CARD if d["reason"] == "rumour_mill" else state.phase
    return replace(state, rows=rows, phase=phase)


def _round_started(state: State, d: Data) -> State:
    return replace(state, round=d["round"], phase=ROUND, winner=None)


def _offered(state: State, d: Data) -> State:
    offer = from_json(d["offer"])
    state = replace(state, supply=sub(state.supply, offer), offer=add(state.offer, offer))
    return open_phase(state, PRODUCE, list(state.seats))


def _sealed(state: State, d: Data) -> State:
    seat = d["seat"]
    return replace(
        state,
        submitted=(*state.submitted, seat),
        sealed=(*state.sealed, (seat, {k: v for k, v in d.items() if k != "seat"})),
    )


def _revealed(state: State, d: Data) -> State:
    return replace(state, phase=DISTRIBUTE, expected=(), submitted=(), sealed=())


def _offer_returned(state: State, d: Data) -> State:
    back = from_json(d["offer"])
    return replace(state, supply=add(state.supply, back), offer=sub(state.offer, back))


def _produced(state: State, d: Data) -> State:
    c = COLOURS.index(d["colour"])
    production = list(state.production)
    for share in d["seats"]:
        production[share["seat"]] = add(production[share["seat"]], goods.one(c, share["count"]))
    supply = add(state.supply, goods.one(c, d["left"] - d["from_supply"]))
    offer = sub(state.offer, goods.one(c, state.offer[c]))
    return replace(state, production=tuple(production), supply=supply, offer=offer)


def _lowest_raised(state: State, d: Data) -> State:
    return replace(state, steps=_colour_map(state.steps, d["steps"]), phase=TRADE)


def _end_triggered(state: State, d: Data) -> State:
    state = replace(state, final=True, end_reason=d["reason"], deal=None, acceptors=())
    return open_phase(state, FINAL, [])


def _auction_opened(state: State, d: Data) -> State:
    return open_phase(replace(state, winner=None, last_bids=()), BID, d["bidders"])


def _bids_revealed(state: State, d: Data) -> State:
    bids = tuple(
        (b["seat"], COLOURS.index(b["colour"]) if b["colour"] else -1, b["count"])
        for b in d["bids"]
    )
    return replace(state, last_bids=bids, expected=(), submitted=(), sealed=())


def _won(state: State, d: Data) -> State:
    seat, paid = d["seat"], goods.one(COLOURS.index(d["colour"]), d["count"])
    held = tuple((*c, d["card"]) if s == seat else c for s, c in enumerate(state.cards))
    return replace(
        state,
        storage=set_seat(state.storage, seat, sub(state.storage[seat], paid)),
        supply=add(state.supply, paid),
        cards=held,
        card=None,
        winner=seat,
        starter=seat,
        phase=RAISE,
    )


def _card_removed(state: State, d: Data) -> State:
    return replace(state, removed=(*state.removed, d["card"]), card=None, phase=NEXT_CARD)


def _after_raise(state: State) -> State:
    bought = state.cards[state.winner][-1] if state.winner is not None else None
    shift = bought is not None and cards()[bought].effect.get("shift_on_purchase", False)
    return replace(state, phase=SHIFT if shift else NEXT_CARD)


def _raised(state: State, d: Data) -> State:
    steps = _colour_map(state.steps, {d["colour"]: d["step"]})
    return _after_raise(replace(state, steps=steps))


def _raise_declined(state: State, d: Data) -> State:
    return _after_raise(state)


def _shift_declined(state: State, d: Data) -> State:
    return replace(state, phase=NEXT_CARD)


def _sale_opened(state: State, d: Data) -> State:
    return open_phase(replace(state, final=d["final"]), SELL, d["sellers"])


def _sales_revealed(state: State, d: Data) -> State:
    return replace(state, expected=(), submitted=(), sealed=())


def _sold(state: State, d: Data) -> State:
    seat, cubes, vp = d["seat"], from_json(d["cubes"]), from_json(d["vp"])
    return replace(
        state,
        storage=set_seat(state.storage, seat, sub(state.storage[seat], cubes)),
        vp=set_seat(state.vp, seat, add(state.vp[seat], vp)),
        supply=add(state.supply, sub(cubes, vp)),
    )


def _discarded(state: State, d: Data) -> State:
    seat, gone = d["seat"], from_json(d["goods"])
    state = replace(
        state,
        storage=set_seat(state.storage, seat, sub(state.storage[seat], gone)),
        supply=add(state.supply, gone),
    )
    return state if d["forced"] else replace(state, submitted=(*state.submitted, seat))


def _discard_opened(state: State, d: Data) -> State:
    return open_phase(state, DISCARD, d["seats"])


def _round_ended(state: State, d: Data) -> State:
    return open_phase(state, ROUND, [])


def _scored(state: State, d: Data) -> State:
    return open_phase(state, OVER, [])


APPLY: dict[str, Handler] = {
    "GameStarted": _started,
    "ExchangeValuesDrawn": _rows_drawn,
    "VictoryValuesDrawn": _steps_drawn,
    "GoodsDealt": _dealt,
    "DeckShuffled": _shuffled,
    "CardRevealed": _card_revealed,
    "ExchangeValueMoved": _value_moved,
    "RoundStarted": _round_started,
    "GoodsOffered": _offered,
    "ProductionSealed": _sealed,
    "ProductionRevealed": _revealed,
    "SupplyExhausted": unchanged,
    "OfferReturned": _offer_returned,
    "GoodsProduced": _produced,
    "LowestValueRaised": _lowest_raised,
    "GameEndTriggered": _end_triggered,
    "AnswerSealed": _sealed,
    **TRADE_APPLY,
    "AuctionOpened": _auction_opened,
    "BidSealed": _sealed,
    "BidsRevealed": _bids_revealed,
    "AuctionWon": _won,
    "CardRemoved": _card_removed,
    "VictoryValueRaised": _raised,
    "RaiseDeclined": _raise_declined,
    "ShiftDeclined": _shift_declined,
    "SaleOpened": _sale_opened,
    "SaleSealed": _sealed,
    "SalesRevealed": _sales_revealed,
    "GoodsSold": _sold,
    "GoodsDiscarded": _discarded,
    "DiscardOpened": _discard_opened,
    "RoundEnded": _round_ended,
    "GameScored": _scored,
}
evolve = EVENTS.evolver(APPLY)


def then(state: State, events: list[Event], more: Callable[[State], list[Event]]) -> list[Event]:
    """Return `events` followed by `more(state after events)` (for chained automatic steps)."""
    return [*events, *more(fold(state, events, evolve))]

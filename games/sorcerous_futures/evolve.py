"""Apply Sorcerous Futures events to the state: no checks, no randomness, never fails.

Event data may come straight from JSON, so lists are turned back into tuples here.
"""

from __future__ import annotations

from typing import Any

from games.catalog import Data, Handler, unchanged
from games.kit import OVER, others, replace, without
from games.sorcerous_futures.events import EVENTS
from games.sorcerous_futures.state import (
    CHOOSE,
    CROWNS,
    DEAL,
    NEXT,
    OPEN,
    SEALED,
    START_GOLD,
    State,
    is_complete,
)


def _set(items: tuple, index: Any, item: Any) -> tuple:
    out = list(items)
    if isinstance(index, int) and 0 <= index < len(out):
        out[index] = item
    return tuple(out)


def _started(state: State | None, d: Data) -> State:
    order = tuple(d["order"])
    n = len(order)
    return State(
        order=order,
        sly=bool(d.get("sly_excuse", False)),
        gold=(START_GOLD,) * n,
        owned=((),) * n,
        aces=((),) * n,
        holding=((),) * n,
        crowns=(None,) * n,
    )


def _excuse_placed(state: State, d: Data) -> State:
    return replace(state, excuse_holder=d["seat"])


def _aces_dealt(state: State, d: Data) -> State:
    aces = state.aces
    for item in d["aces"]:
        aces = _set(aces, item["seat"], tuple(item["aces"]))
    return replace(state, aces=aces)


def _crowns_taken(state: State, d: Data) -> State:
    holding = state.holding
    for item in d["crowns"]:
        holding = _set(holding, item["seat"], tuple(item["crowns"]))
    phase = CROWNS if state.excuse_holder is not None else state.phase
    return replace(state, holding=holding, phase=phase)


def _crowns_shuffled(state: State, d: Data) -> State:
    return replace(state, holding=_set(state.holding, d["seat"], tuple(d["crowns"])))


def _crowns_passed(state: State, d: Data) -> State:
    giver, taker, packet = d["from"], d["to"], list(d["crowns"])
    holding = _set(state.holding, giver, without(state.holding[giver], packet))
    return replace(state, holding=_set(holding, taker, (*holding[taker], *packet)))


def _crown_placed(state: State, d: Data, source: Any) -> State:
    crown = d["crown"]
    holding = _set(state.holding, source, without(state.holding[source], [crown]))
    crowns = _set(state.crowns, d["seat"], crown)
    return replace(state, holding=holding, crowns=crowns, decisions=state.decisions + 1)


def _crown_kept(state: State, d: Data) -> State:
    return _crown_placed(state, d, d["seat"])


def _crown_given(state: State, d: Data) -> State:
    return _crown_placed(state, d, state.excuse_holder)


def _crowns_set_aside(state: State, d: Data) -> State:
    seat, gone = d["seat"], list(d["crowns"])
    state = replace(
        state,
        holding=_set(state.holding, seat, without(state.holding[seat], gone)),
        set_aside=(*state.set_aside, *gone),
    )
    done = is_complete(state) and not any(state.holding)
    return replace(state, phase=DEAL if done else state.phase)


def _deck_shuffled(state: State, d: Data) -> State:
    return replace(state, deck=tuple(d["cards"]))


def _pool_drawn(state: State, d: Data) -> State:
    drawn = list(d["cards"])
    return replace(state, deck=without(state.deck, drawn), pool=tuple(drawn))


def _pool_shuffled(state: State, d: Data) -> State:
    return replace(state, pool=tuple(d["cards"]))


def _valuation_dealt(state: State, d: Data) -> State:
    card = d["card"]
    return replace(
        state,
        deck=without(state.deck, [card]),
        pool=without(state.pool, [card]),
        valuations=(*state.valuations, (d["under"], card)),
    )


def _row_dealt(state: State, d: Data) -> State:
    shown = list(d["cards"])
    return replace(state, deck=without(state.deck, shown), row=tuple(shown), group=d["group"])


def _turn_started(state: State, d: Data) -> State:
    return replace(
        state,
        phase=CHOOSE,
        active=d["seat"],
        auctions=d["number"],
        lot=None,
        format=None,
        high=0,
        high_bidder=None,
        queue=(),
        bids=(),
        passed=(),
        sealed=(),
    )


def _auction_started(state: State, d: Data) -> State:
    card, seat, fmt = d["card"], d["seat"], d["format"]
    state = replace(
        state,
        row=without(state.row, [card]),
        lot=card,
        format=fmt,
        decisions=state.decisions + 1,
    )
    if fmt == "open" and seat in state.order:
        queue = (*others(state, seat), seat)
        return replace(state, phase=OPEN, queue=queue)
    return replace(state, phase=SEALED)


def _bid_placed(state: State, d: Data) -> State:
    seat, amount = d["seat"], d["amount"]
    state = replace(state, high=amount, high_bidder=seat, bids=(*state.bids, (seat, amount)))
    if d.get("opening"):
        return state
    return replace(state, queue=state.queue[1:], decisions=state.decisions + 1)


def _bid_passed(state: State, d: Data) -> State:
    return replace(
        state,
        queue=state.queue[1:],
        passed=(*state.passed, d["seat"]),
        decisions=state.decisions + 1,
    )


def _sealed_submitted(state: State, d: Data) -> State:
    return replace(state, sealed=(*state.sealed, (d["seat"], d["amount"])))


def _sealed_revealed(state: State, d: Data) -> State:
    return replace(state, sealed=tuple((b["seat"], b["amount"]) for b in d["bids"]))


def _auction_won(state: State, d: Data) -> State:
    seat, card, amount = d["seat"], d["card"], d["amount"]
    bids = state.sealed if d.get("format") == "closed" else state.bids
    last = {k: d.get(k) for k in ("seat", "card", "amount", "format")}
    last["bids"] = [{"seat": s, "amount": a} for s, a in bids]
    return replace(
        state,
        gold=_set(state.gold, seat, state.gold[seat] - amount),
        owned=_set(state.owned, seat, (*state.owned[seat], card)),
        lot=None,
        phase=NEXT,
        last=last,
        queue=(),
    )


def _excuse_revealed(state: State, d: Data) -> State:
    return replace(state, excuse_revealed=True)


def _valuations_revealed(state: State, d: Data) -> State:
    return replace(state, revealed=True, excuse_revealed=True)


def _scored(state: State, d: Data) -> State:
    return replace(state, phase=OVER, active=None)


APPLY: dict[str, Handler] = {
    "GameStarted": _started,
    "ExcusePlaced": _excuse_placed,
    "AcesDealt": _aces_dealt,
    "CrownsTaken": _crowns_taken,
    "CrownsShuffled": _crowns_shuffled,
    "CrownsPassed": _crowns_passed,
    "CrownKept": _crown_kept,
    "CrownGiven": _crown_given,
    "CrownsSetAside": _crowns_set_aside,
    "DeckShuffled": _deck_shuffled,
    "ValuationCardsDrawn": _pool_drawn,
    "ValuationCardsShuffled": _pool_shuffled,
    "ValuationDealt": _valuation_dealt,
    "RowDealt": _row_dealt,
    "TurnStarted": _turn_started,
    "AuctionStarted": _auction_started,
    "BidPlaced": _bid_placed,
    "BidPassed": _bid_passed,
    "SealedBidSubmitted": _sealed_submitted,
    "SealedBidsRevealed": _sealed_revealed,
    "AuctionWon": _auction_won,
    "ExcuseValuationRevealed": _excuse_revealed,
    "ValuationsRevealed": _valuations_revealed,
    "CrownsRevealed": unchanged,
    "GameScored": _scored,
}
evolve = EVENTS.evolver(APPLY)

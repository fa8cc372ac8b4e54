"""Apply Goblin Market events to the state: no checks, no randomness, never fails.

Event data may come straight from JSON, so lists are turned back into tuples here.
"""

from __future__ import annotations

from games.base import Seat
from games.archive.goblin_market_v2.shared.catalog import Data, Handler
from games.archive.goblin_market_v2.events import EVENTS
from games.archive.goblin_market_v2.state import (
    BIDDING,
    CARD_CHOICE,
    DISTRIBUTE,
    GOBLIN,
    NEXT,
    SISTERHOOD,
    SPLIT_CHOICE,
    State,
    index,
    next_bidder,
    placed,
)
from games.archive.goblin_market_v2.shared.kit import OVER, replace, without


def _add_coins(state: State, payments: list[Data]) -> tuple[int, ...]:
    coins = list(state.coins)
    for pay in payments:
        coins[index(state, pay["seat"])] += pay["coins"]
    return tuple(coins)


def _started(state: State | None, d: Data) -> State:
    order = tuple(d["order"])
    return State(
        order=order,
        edition=d["edition"],
        courts=d["courts"],
        opener=order[0],
        coins=(0,) * len(order),
        owned=((),) * len(order),
    )


def _shuffled(state: State, d: Data) -> State:
    return replace(
        state, auction_deck=tuple(d["auction_deck"]), goblin_deck=tuple(d["goblin_deck"])
    )


def _dealt(state: State, d: Data) -> State:
    return replace(state, coins=_add_coins(state, d["coins"]), phase=NEXT)


def _size_revealed(state: State, d: Data) -> State:
    card = d["card"]
    return replace(
        state,
        auction_deck=without(state.auction_deck, [card]),
        set_aside=(*state.set_aside, card),
        size_card=card,
        size=d["size"],
        final=False,
    )


def _final_started(state: State, d: Data) -> State:
    return replace(state, size_card=None, size=d["size"], final=True)


def _cards_revealed(state: State, d: Data) -> State:
    shown = list(d["cards"])
    return replace(
        state,
        auction_deck=without(state.auction_deck, shown),
        offer=tuple(shown),
        phase=BIDDING,
        auctions=state.auctions + 1,
        opener=d["opener"],
        to_act=d["opener"],
        bids=(),
        passed=(),
        high=0,
        high_bidder=None,
        winner=None,
        receivers=(),
    )


def _bid_placed(state: State, d: Data) -> State:
    seat, amount = d["seat"], d["amount"]
    state = replace(
        state,
        bids=(*state.bids, (seat, amount)),
        high=amount,
        high_bidder=seat,
        decisions=state.decisions + 1,
    )
    return replace(state, to_act=next_bidder(state, seat))


def _bid_passed(state: State, d: Data) -> State:
    seat = d["seat"]
    state = replace(state, passed=(*state.passed, seat), decisions=state.decisions + 1)
    return replace(state, to_act=next_bidder(state, seat))


def _all_passed(state: State, d: Data) -> State:
    return replace(
        state, discards=(*state.discards, *d["discarded"]), offer=(), to_act=None, phase=NEXT
    )


def _won(state: State, d: Data) -> State:
    phase = SPLIT_CHOICE if len(state.offer) > 1 else DISTRIBUTE
    return replace(state, winner=d["seat"], to_act=None, phase=phase)


def _taken(state: State, d: Data) -> State:
    seat, taken = d["seat"], list(d["cards"])
    i = index(state, seat)
    offer = without(state.offer, taken)
    owned = list(state.owned)
    owned[i] = (*owned[i], *taken)
    coins = list(state.coins)
    coins[i] -= d["paid"]
    chosen = state.phase in (SPLIT_CHOICE, CARD_CHOICE)
    receivers = (*state.receivers, seat)
    return replace(
        state,
        offer=offer,
        owned=tuple(owned),
        coins=tuple(coins),
        receivers=receivers,
        decisions=state.decisions + int(chosen),
        phase=_after_taking(state, offer, receivers),
    )


def _after_taking(state: State, offer: tuple[str, ...], receivers: tuple[Seat, ...]) -> str:
    if not offer:
        return SISTERHOOD
    if state.phase == SPLIT_CHOICE and len(offer) == 2 and len(placed(state)) > len(receivers):
        return CARD_CHOICE
    return DISTRIBUTE


def _discarded(state: State, d: Data) -> State:
    gone = list(d["cards"])
    offer = without(state.offer, gone)
    return replace(
        state,
        offer=offer,
        discards=(*state.discards, *gone),
        phase=DISTRIBUTE if offer else SISTERHOOD,
    )


def _sisterhood_paid(state: State, d: Data) -> State:
    return replace(state, coins=_add_coins(state, d["payments"]), phase=GOBLIN)


def _goblin_revealed(state: State, d: Data) -> State:
    card = d["card"]
    return replace(
        state,
        goblin_deck=without(state.goblin_deck, [card]),
        goblin_used=(*state.goblin_used, card),
        goblin_shown=card,
    )


def _goblin_paid(state: State, d: Data) -> State:
    return replace(state, coins=_add_coins(state, d["payments"]), phase=NEXT)


def _goblin_reshuffled(state: State, d: Data) -> State:
    return replace(state, goblin_deck=tuple(d["order"]), goblin_used=())


def _scored(state: State, d: Data) -> State:
    return replace(state, phase=OVER, to_act=None)


APPLY: dict[str, Handler] = {
    "GameStarted": _started,
    "DecksShuffled": _shuffled,
    "CoinsDealt": _dealt,
    "AuctionSizeRevealed": _size_revealed,
    "FinalAuctionStarted": _final_started,
    "AuctionCardsRevealed": _cards_revealed,
    "BidPlaced": _bid_placed,
    "BidPassed": _bid_passed,
    "AllPassed": _all_passed,
    "AuctionWon": _won,
    "CardsTaken": _taken,
    "CardsDiscarded": _discarded,
    "SisterhoodPaid": _sisterhood_paid,
    "GoblinCardRevealed": _goblin_revealed,
    "GoblinPaid": _goblin_paid,
    "GoblinDeckReshuffled": _goblin_reshuffled,
    "GameScored": _scored,
}
evolve = EVENTS.evolver(APPLY)

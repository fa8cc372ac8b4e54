"""Setting up and deciding player actions (Goblin Market has no simultaneous phase)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.base import Action, Event, RuleViolation, Seat
from games.archive.goblin_market_v2.shared.decktet import basic_deck
from games.archive.goblin_market_v2.actions import ANSWERS, owed, parse
from games.archive.goblin_market_v2.events import event
from games.archive.goblin_market_v2.flow import play
from games.archive.goblin_market_v2.options import normalize_options
from games.archive.goblin_market_v2.state import (
    START_COINS,
    State,
    coins_of,
    goblin_cards,
    last_bids,
)
from games.archive.goblin_market_v2.shared.kit import action_kind, answered
from games.rng import Rng


def setup(options: dict[str, Any], order: tuple[Seat, ...], rng: Rng) -> list[Event]:
    """Return the events that open a game, up to the first bid owed by order[0]."""
    opts = normalize_options(options, len(order))
    auction_deck = rng.shuffle(basic_deck())
    goblin_deck = rng.shuffle(goblin_cards(opts["courts"]))
    events = [
        event("GameStarted", order=list(order), edition=opts["edition"], courts=opts["courts"]),
        event("DecksShuffled", visible_to=(), auction_deck=auction_deck, goblin_deck=goblin_deck),
        event("CoinsDealt", coins=[{"seat": s, "coins": START_COINS} for s in order]),
    ]
    return play(None, events, rng)[1]


def _bid(state: State, seat: Seat, action: Action) -> list[Event]:
    amount = action["amount"]
    if amount <= state.high or amount < 1:
        raise RuleViolation(
            f"a bid must be at least {state.high + 1}", code="bid_too_low", field="amount"
        )
    if amount > coins_of(state, seat):
        raise RuleViolation(
            f"seat {seat} holds only {coins_of(state, seat)} coins",
            code="insufficient_coins",
            field="amount",
        )
    return [event("BidPlaced", seat=seat, amount=amount)]


def _pass(state: State, seat: Seat, action: Action) -> list[Event]:
    return [event("BidPassed", seat=seat, forced=False)]


def _offered(state: State, action: Action) -> str:
    card = action["card"]
    if card not in state.offer:
        raise RuleViolation(
            f"{card!r} is not among the cards on offer", code="card_not_available", field="card"
        )
    return card


def _take_all(state: State, seat: Seat, action: Action) -> list[Event]:
    return [event("CardsTaken", seat=seat, cards=list(state.offer), paid=state.high)]


def _take_one(state: State, seat: Seat, action: Action) -> list[Event]:
    return [event("CardsTaken", seat=seat, cards=[_offered(state, action)], paid=state.high)]


def _choose(state: State, seat: Seat, action: Action) -> list[Event]:
    card = _offered(state, action)
    return [event("CardsTaken", seat=seat, cards=[card], paid=last_bids(state)[seat])]


HANDLERS: dict[str, Callable[[State, Seat, Action], list[Event]]] = {
    "bid": _bid,
    "pass": _pass,
    "take_all": _take_all,
    "take_one": _take_one,
    "choose": _choose,
}


def decide(state: State | None, seat: Seat, action: Action, rng: Rng) -> list[Event]:
    """Check `action` by `seat` and return every event it causes up to the next decision."""
    kind = action_kind(state, action, parse)
    answered(owed(state), seat, kind, ANSWERS)
    return play(state, HANDLERS[kind](state, seat, action), rng)[1]


def ready(state: object) -> None:
    """Return None: Goblin Market has no simultaneous phase."""
    return None


def resolve(state: object, rng: object) -> list:
    """Never called: Goblin Market has no simultaneous phase."""
    raise RuntimeError("Goblin Market has no simultaneous phase to resolve")

"""Setting up, deciding player actions, and the conservation checks used by tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from games.base import Event, NotYourTurn, RuleViolation, Seat
from games.decktet import basic_deck
from games.goblin_market.actions import ANSWERS, owed, parse
from games.goblin_market.evolve import evolve
from games.goblin_market.flow import play
from games.goblin_market.options import normalize_options
from games.goblin_market.state import (
    OVER,
    SETUP,
    START_COINS,
    State,
    coins_of,
    event,
    goblin_cards,
    last_bids,
)
from games.rng import Rng

Action = dict[str, Any]


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
    state = None
    for ev in events:
        state = evolve(state, ev)
    return events + play(state, [], rng)[1]


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
    if state is None:
        raise RuleViolation("the game has not been set up", code="action_not_allowed")
    if state.phase == OVER:
        raise RuleViolation("the game is over", code="game_over")
    kind = parse(action)
    due = [o for o in owed(state) if o.seat == seat]
    if not due:
        raise NotYourTurn(f"seat {seat} owes no decision now")
    if kind not in ANSWERS[due[0].kind]:
        raise RuleViolation(
            f"{kind} does not answer a {due[0].kind} decision",
            code="action_not_allowed",
            field="type",
        )
    return play(state, HANDLERS[kind](state, seat, action), rng)[1]


def is_over(state: State | None) -> bool:
    """Return True once the game has been scored."""
    return state is not None and state.phase == OVER


def check_invariants(state: State) -> None:
    """Raise AssertionError if a card is lost or doubled, or coins went negative."""
    assert all(c >= 0 for c in state.coins), f"negative coins: {state.coins}"
    assert len(state.coins) == len(state.owned) == len(state.order)
    if state.phase == SETUP:
        return
    places = Counter([*state.auction_deck, *state.set_aside, *state.offer, *state.discards])
    for owned in state.owned:
        places.update(owned)
    deck = Counter(basic_deck())
    assert places == deck, f"basic cards lost {deck - places}, doubled {places - deck}"
    goblins = Counter([*state.goblin_deck, *state.goblin_used])
    assert goblins == Counter(goblin_cards(state.courts)), f"goblin cards misplaced: {goblins}"
    if state.phase == OVER:
        assert not state.auction_deck and not state.offer, "the game ended with cards to sell"

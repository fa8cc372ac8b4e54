"""Setting up, deciding player actions, and resolving simultaneous phases."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.base import Action, Event, NotYourTurn, PhaseClosed, RuleViolation, Seat
from games.archive.black_market_v1 import auction, production, selling, trade, wild
from games.archive.black_market_v1.actions import ANSWERS, SUBMITS, owed, parse
from games.archive.black_market_v1.data import (
    CARD_IDS,
    COLOURS,
    SETUP_ROWS,
    SETUP_STEPS,
    SUPPLY,
)
from games.archive.black_market_v1.events import event
from games.archive.black_market_v1.evolve import evolve
from games.archive.black_market_v1.flow import RESOLVERS, play
from games.archive.black_market_v1.goods import N, to_json
from games.archive.black_market_v1.options import normalize_options
from games.archive.black_market_v1.state import WILD, State, is_ready, phase_key
from games.archive.black_market_v1.shared.kit import SETUP, action_kind, answered, fold
from games.rng import Rng

Handler = Callable[[State, Seat, Action], list[Event]]


def setup(options: dict[str, Any], order: tuple[Seat, ...], rng: Rng) -> list[Event]:
    """Return the events that open a game, up to the secret production of round 1."""
    opts = normalize_options(options, len(order))
    supply = SUPPLY[len(order)]
    rows_draw = rng.shuffle(COLOURS)
    steps_draw = rng.shuffle(COLOURS)
    deck = rng.shuffle(CARD_IDS)
    events = [
        event("GameStarted", order=list(order), trade=opts["trade"], supply=supply),
        event("ExchangeValuesDrawn", draw=rows_draw, rows=dict(zip(rows_draw, SETUP_ROWS))),
        event("VictoryValuesDrawn", draw=steps_draw, steps=dict(zip(steps_draw, SETUP_STEPS))),
        event("DeckShuffled", (), order=deck),
        event(
            "GoodsDealt",
            supply=to_json((supply,) * N),
            storage=to_json((1,) * N),
        ),
    ]
    state = fold(None, events, evolve)
    return events + play(state, auction.reveal(state, deck[0]))[1]


HANDLERS: dict[str, Handler] = {
    "produce": production.produce,
    "propose": trade.propose,
    "answer": trade.answer,
    "pick": trade.pick,
    "offer": wild.offer,
    "accept": wild.accept,
    "decline": wild.decline,
    "withdraw": wild.withdraw,
    "done": wild.done,
    "give_back": trade.give_back,
    "bid": auction.bid,
    "raise": auction.raise_value,
    "shift": auction.shift,
    "sell": selling.sell,
    "discard": selling.discard,
}
PASSES: dict[str, Handler] = {
    "propose": trade.pass_turn,
    "raise": auction.decline_raise,
    "shift": auction.decline_shift,
}


def _late_done(state: State, seat: Seat, kind: str) -> bool:
    """Return True for the last trader's `done` once the others are done: it is accepted
    (it changes nothing) so that a deadline can apply every missing default in turn."""
    return kind == "done" and state.phase == WILD and seat not in state.submitted


def _submission(state: State, seat: Seat, kind: str) -> None:
    if _late_done(state, seat, kind):
        return
    if state.phase != SUBMITS[kind] or is_ready(state):
        raise PhaseClosed(f"no {SUBMITS[kind]} phase is open for submissions")
    if seat in state.submitted:
        raise RuleViolation(f"seat {seat} has already submitted", code="already_submitted")
    if state.phase != WILD and seat not in state.expected:
        raise NotYourTurn(f"seat {seat} takes no part in this {state.phase} phase")


def _turn(state: State, seat: Seat, kind: str) -> Handler:
    decision = answered(owed(state), seat, kind, ANSWERS)
    return PASSES[decision.kind] if kind == "pass" else HANDLERS[kind]


def decide(state: State | None, seat: Seat, action: Action, rng: Rng) -> list[Event]:
    """Check `action` by `seat` and return every event it causes up to the next decision."""
    kind = action_kind(state, action, parse, closed=(SETUP,))
    if seat not in state.seats:
        raise NotYourTurn(f"there is no seat {seat}")
    if kind in SUBMITS:
        _submission(state, seat, kind)
        handler = HANDLERS[kind]
    else:
        handler = _turn(state, seat, kind)
    return play(state, handler(state, seat, action))[1]


def ready(state: State | None) -> str | None:
    """Return the key of the simultaneous phase waiting for resolution, else None."""
    return phase_key(state) if state is not None and is_ready(state) else None


def resolve(state: State, rng: Rng) -> list[Event]:
    """Close the ready phase: reveal its submissions and play on to the next decision."""
    if ready(state) is None:
        raise RuleViolation("no phase is waiting to be resolved", code="action_not_allowed")
    return play(state, RESOLVERS[state.phase](state))[1]

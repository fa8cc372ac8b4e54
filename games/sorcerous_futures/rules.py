"""Setting up, deciding player actions, and resolving sealed bids."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.base import Action, Event, PhaseClosed, RuleViolation, Seat
from games.kit import action_kind, answered, clockwise, fold
from games.rng import Rng
from games.sorcerous_futures import assignment
from games.sorcerous_futures.actions import ANSWERS, owed, parse, phase_key
from games.sorcerous_futures.events import event
from games.sorcerous_futures.evolve import evolve
from games.sorcerous_futures.flow import play
from games.sorcerous_futures.options import normalize_options
from games.sorcerous_futures.ritual import ritual
from games.sorcerous_futures.state import (
    SEALED,
    State,
    all_aces,
    all_crowns,
    opening_bid,
    sealed_bids,
)


def setup(options: dict[str, Any], order: tuple[Seat, ...], rng: Rng) -> list[Event]:
    """Return the events that open a game, up to the first decision owed."""
    opts = normalize_options(options, len(order))
    events = [event("GameStarted", order=list(order), sly_excuse=opts["sly_excuse"])]
    seats = list(order)
    if len(order) == 4:
        holder = rng.choice(list(order))
        events.append(event("ExcusePlaced", seat=holder))
        seats.remove(holder)
    else:
        events.append(event("ExcusePlaced", seat=None))
    aces = rng.shuffle(all_aces())
    dealt = [{"seat": s, "aces": aces[2 * i : 2 * i + 2]} for i, s in enumerate(seats)]
    events.append(event("AcesDealt", aces=dealt))
    state = fold(None, events, evolve)
    if state.excuse_holder is None:
        more = ritual(state, rng)
    else:
        hand = [{"seat": state.excuse_holder, "crowns": all_crowns()}]
        more = [event("CrownsTaken", crowns=hand)]
    state = fold(state, more, evolve)
    return events + more + play(state, [], rng)[1]


def _give_crown(state: State, seat: Seat, action: Action, rng: Rng) -> list[Event]:
    return assignment.give(state, action["seat"], action["crown"])


def _keep_crown(state: State, seat: Seat, action: Action, rng: Rng) -> list[Event]:
    return assignment.keep(state, action["crown"])


def _random_crowns(state: State, seat: Seat, action: Action, rng: Rng) -> list[Event]:
    return assignment.draw(state, rng)


def _start_auction(state: State, seat: Seat, action: Action, rng: Rng) -> list[Event]:
    card, fmt = action["card"], action["format"]
    if card not in state.row:
        raise RuleViolation(f"{card!r} is not in the row", code="card_not_available", field="card")
    events = [event("AuctionStarted", seat=seat, card=card, format=fmt)]
    if fmt == "closed":
        return events
    bid = opening_bid(card)
    if state.gold[seat] < bid:
        raise RuleViolation(
            f"an open auction for {card!r} opens at {bid} gold; seat {seat} holds "
            f"{state.gold[seat]}",
            code="insufficient_gold",
            field="format",
        )
    return [*events, event("BidPlaced", seat=seat, amount=bid, opening=True)]


def _check_amount(state: State, seat: Seat, amount: int, low: int) -> None:
    if amount < low:
        raise RuleViolation(f"a bid must be at least {low}", code="bid_too_low", field="amount")
    if amount > state.gold[seat]:
        raise RuleViolation(
            f"seat {seat} holds only {state.gold[seat]} gold",
            code="insufficient_gold",
            field="amount",
        )


def _bid(state: State, seat: Seat, action: Action, rng: Rng) -> list[Event]:
    _check_amount(state, seat, action["amount"], state.high + 1)
    return [event("BidPlaced", seat=seat, amount=action["amount"], opening=False)]


def _pass(state: State, seat: Seat, action: Action, rng: Rng) -> list[Event]:
    return [event("BidPassed", seat=seat, forced=False)]


def _sealed_bid(state: State, seat: Seat, action: Action, rng: Rng) -> list[Event]:
    _check_amount(state, seat, action["amount"], 0)
    return [event("SealedBidSubmitted", (seat,), seat=seat, amount=action["amount"])]


HANDLERS: dict[str, Callable[[State, Seat, Action, Rng], list[Event]]] = {
    "give_crown": _give_crown,
    "keep_crown": _keep_crown,
    "random_crowns": _random_crowns,
    "start_auction": _start_auction,
    "bid": _bid,
    "pass": _pass,
    "sealed_bid": _sealed_bid,
}


def _check_sealed(state: State, seat: Seat) -> None:
    if state.phase != SEALED:
        raise PhaseClosed("no sealed-bid phase is open")
    if seat in sealed_bids(state):
        raise RuleViolation(
            f"seat {seat} already submitted a bid to {phase_key(state)}", code="already_submitted"
        )


def decide(state: State | None, seat: Seat, action: Action, rng: Rng) -> list[Event]:
    """Check `action` by `seat` and return every event it causes up to the next decision."""
    kind = action_kind(state, action, parse)
    if kind == "sealed_bid" and seat in state.order:
        _check_sealed(state, seat)
    answered(owed(state), seat, kind, ANSWERS)
    return play(state, HANDLERS[kind](state, seat, action, rng), rng)[1]


def ready(state: State | None) -> str | None:
    """Return the sealed-bid phase's key once every seat has bid, else None."""
    if state is None or state.phase != SEALED:
        return None
    return phase_key(state) if len(sealed_bids(state)) == len(state.order) else None


def resolve(state: State, rng: Rng) -> list[Event]:
    """Reveal every sealed bid at once and give the card to the highest, ties clockwise."""
    if ready(state) is None:
        raise RuleViolation("no sealed-bid phase is waiting", code="action_not_allowed")
    bids = sealed_bids(state)
    ranking = clockwise(state, state.active)
    amounts = {s: bids.get(s, 0) for s in ranking}  # a missing bid counts as 0
    best = max(amounts.values())
    winner = next(s for s in ranking if amounts[s] == best)
    events = [
        event("SealedBidsRevealed", bids=[{"seat": s, "amount": amounts[s]} for s in ranking]),
        event("AuctionWon", seat=winner, card=state.lot, amount=best, format="closed"),
    ]
    return play(state, events, rng)[1]

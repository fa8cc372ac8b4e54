"""Scores: counters plus the value of every Friend, Item and Special a player has in play."""

from __future__ import annotations

from typing import Any

from games.base import Event, Result, Seat
from games.archive.gobcon_v1.cards import CATEGORIES
from games.archive.gobcon_v1.events import event
from games.archive.gobcon_v1.state import State
from games.archive.gobcon_v1.shared.kit import ranked


def modifier(state: State, seat: Seat, category: str | None) -> int:
    """Return the sum of `seat`'s bonuses (+1) and maluses (-1) for `category`."""
    if category is None:
        return 0
    total = 0
    for inst in state.specials[seat]:
        card = state.card(inst)
        if card.category == category and card.kind in ("bonus", "malus"):
            total += 1 if card.kind == "bonus" else -1
    friend = state.friends[seat]
    if friend is not None:
        card = state.card(friend)
        if card.kind == "all_bonus" or (card.kind == "bonus" and card.category == category):
            total += 1
    return total


def item_value(state: State, seat: Seat, instance: str) -> int:
    """Return what an Item in front of `seat` is worth now (never below 0)."""
    card = state.card(instance)
    return max(0, card.gp + modifier(state, seat, card.category))


def cards_value(state: State, seat: Seat) -> int:
    """Return the value of `seat`'s Friend, Items and GP Specials in play."""
    friend = state.friends[seat]
    total = state.card(friend).gp if friend is not None else 0
    total += sum(item_value(state, seat, c) for c in state.items[seat])
    total += sum(state.card(c).gp for c in state.specials[seat])
    return total


def score(state: State, seat: Seat) -> int:
    """Return `seat`'s score: counters plus the value of its cards in play."""
    return state.counters[seat] + cards_value(state, seat)


def figures(state: State, seat: Seat) -> dict[str, Any]:
    """Return `seat`'s score, counters and per-category modifiers as JSON data."""
    return {
        "seat": seat,
        "score": score(state, seat),
        "counters": state.counters[seat],
        "modifiers": {cat: modifier(state, seat, cat) for cat in CATEGORIES},
    }


def reached_goal(state: State) -> bool:
    """Return True once some player's score is at or above the goal."""
    return any(score(state, s) >= state.goal for s in state.order)


def result(state: State) -> Result:
    """Return the standings: most GP first, equal scores share a place (and the win)."""
    table = {s: score(state, s) for s in state.order}
    detail = {"reason": state.reason, "scores": score_rows(state)}
    return ranked(state.order, table, {s: (table[s],) for s in state.order}, detail)


def finished_event(state: State, reason: str) -> Event:
    """Build the event that ends the game, with every score and the winners."""
    rows = score_rows(state)
    best = max(r["score"] for r in rows)
    winners = [r["seat"] for r in rows if r["score"] == best]
    return event("GameFinished", reason=reason, scores=rows, winners=winners)


def score_rows(state: State) -> list[dict[str, int]]:
    """Return every seat's score and counters, in table order."""
    return [
        {"seat": seat, "score": score(state, seat), "counters": state.counters[seat]}
        for seat in state.order
    ]

"""The action objects players send: their shapes, and who owes which decision now."""

from __future__ import annotations

from typing import Any

from games.archive.goblin_market_v2.shared import shapes
from games.base import Owed, Seat
from games.archive.goblin_market_v2.scoring import score_cards
from games.archive.goblin_market_v2.state import (
    BIDDING,
    CARD_CHOICE,
    SPLIT_CHOICE,
    State,
    can_bid,
    owned_by,
    placed,
)

# Action type -> {field: JSON type}. "type" itself is always required.
SHAPES: dict[str, dict[str, type]] = {
    "bid": {"amount": int},
    "pass": {},
    "take_all": {},
    "take_one": {"card": str},
    "choose": {"card": str},
}
# Decision kind -> the action types that answer it.
ANSWERS = {
    "bid": ("bid", "pass"),
    "split_choice": ("take_all", "take_one"),
    "card_choice": ("choose",),
}


def parse(action: Any) -> str:
    """Check an action object's shape and return its type; raise InvalidAction if malformed."""
    return shapes.parse(action, SHAPES)


def chooser(state: State) -> Seat | None:
    """Return the placed bidder who picks next among the cards left in a split."""
    ranking = placed(state)
    taken = len(state.receivers)
    return ranking[taken] if taken < len(ranking) else None


def least_harmful(state: State, seat: Seat) -> str:
    """Return the offered card that leaves `seat`'s score highest (ties: offer order)."""
    owned = owned_by(state, seat)
    return max(
        state.offer,
        key=lambda card: (score_cards(seat, (*owned, card)).score, -state.offer.index(card)),
    )


def owed(state: State) -> list[Owed]:
    """Return the one decision the game waits for, if any."""
    key = state.decisions
    if state.phase == BIDDING and state.to_act is not None and can_bid(state, state.to_act):
        return [Owed(state.to_act, "bid", f"bid-{key}", {"type": "pass"})]
    if state.phase == SPLIT_CHOICE and state.winner is not None:
        return [Owed(state.winner, "split_choice", f"split_choice-{key}", {"type": "take_all"})]
    seat = chooser(state) if state.phase == CARD_CHOICE else None
    if seat is not None and state.offer:
        default = {"type": "choose", "card": least_harmful(state, seat)}
        return [Owed(seat, "card_choice", f"card_choice-{key}", default)]
    return []

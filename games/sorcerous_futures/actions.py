"""The action objects players send: their shapes, and who owes which decision now."""

from __future__ import annotations

from typing import Any

from games import shapes
from games.base import InvalidAction, Owed
from games.sorcerous_futures.state import (
    CHOOSE,
    CROWNS,
    FORMATS,
    OPEN,
    SEALED,
    State,
    sealed_bids,
)

# Action type -> {field: JSON type}. "type" itself is always required.
SHAPES: dict[str, dict[str, type]] = {
    "give_crown": {"seat": int, "crown": str},
    "keep_crown": {"crown": str},
    "random_crowns": {},
    "start_auction": {"card": str, "format": str},
    "bid": {"amount": int},
    "pass": {},
    "sealed_bid": {"amount": int},
}
# Decision kind -> the action types that answer it.
ANSWERS = {
    "crowns": ("give_crown", "keep_crown", "random_crowns"),
    "auction": ("start_auction",),
    "bid": ("bid", "pass"),
    "sealed_bid": ("sealed_bid",),
}


def parse(action: Any) -> str:
    """Check an action object's shape and return its type; raise InvalidAction if malformed."""
    kind = shapes.parse(action, SHAPES)
    if kind == "start_auction" and action["format"] not in FORMATS:
        raise InvalidAction(f"format must be one of {list(FORMATS)}", field="format")
    return kind


def phase_key(state: State) -> str:
    """Return the key of the current closed auction's sealed-bid phase."""
    return f"sealed-{state.auctions}"


def owed(state: State) -> list[Owed]:
    """Return every decision the game waits for now."""
    n = state.decisions
    if state.phase == CROWNS and state.excuse_holder is not None:
        default = {"type": "random_crowns"}
        return [Owed(state.excuse_holder, "crowns", f"crowns-{n}", default)]
    if state.phase == CHOOSE and state.row and state.active is not None:
        default = {"type": "start_auction", "card": state.row[0], "format": "closed"}
        return [Owed(state.active, "auction", f"auction-{state.auctions}", default)]
    if state.phase == OPEN and state.queue:
        return [Owed(state.queue[0], "bid", f"bid-{n}", {"type": "pass"})]
    if state.phase == SEALED:
        done = sealed_bids(state)
        default = {"type": "sealed_bid", "amount": 0}
        key = phase_key(state)
        return [Owed(s, "sealed_bid", key, default, True) for s in state.order if s not in done]
    return []

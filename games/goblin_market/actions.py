"""The action objects players send: their shapes, who owes what, and what is legal now."""

from __future__ import annotations

from typing import Any

from games import shapes
from games.base import ActionSpec, Owed, Seat
from games.goblin_market.state import (
    BIDDING,
    CARD_CHOICE,
    SPLIT_CHOICE,
    State,
    can_bid,
    coins_of,
    placed,
)

MAX_CHOICES = 20

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


def owed(state: State) -> list[Owed]:
    """Return the one decision the game waits for, if any."""
    key = state.decisions
    if state.phase == BIDDING and state.to_act is not None and can_bid(state, state.to_act):
        return [Owed(state.to_act, "bid", f"bid-{key}", {"type": "pass"})]
    if state.phase == SPLIT_CHOICE and state.winner is not None:
        return [Owed(state.winner, "split_choice", f"split_choice-{key}", {"type": "take_all"})]
    seat = chooser(state) if state.phase == CARD_CHOICE else None
    if seat is not None and state.offer:
        default = {"type": "choose", "card": state.offer[0]}
        return [Owed(seat, "card_choice", f"card_choice-{key}", default)]
    return []


def schema(kind: str, **props: dict[str, Any]) -> dict[str, Any]:
    """Return the JSON Schema of a whole action object of type `kind`."""
    return {
        "type": "object",
        "properties": {"type": {"const": kind}, **props},
        "required": ["type", *props],
        "additionalProperties": False,
    }


def _card_spec(kind: str, offer: tuple[str, ...]) -> ActionSpec:
    choices = [{"type": kind, "card": card} for card in offer]
    return ActionSpec(kind, schema(kind, card={"type": "string", "enum": list(offer)}), choices)


def _bid_specs(state: State, seat: Seat) -> list[ActionSpec]:
    low, high = state.high + 1, coins_of(state, seat)
    amounts = range(low, high + 1)
    choices = None
    if len(amounts) <= MAX_CHOICES:
        choices = [{"type": "bid", "amount": a} for a in amounts]
    amount = {"type": "integer", "minimum": low, "maximum": high}
    return [
        ActionSpec("bid", schema("bid", amount=amount), choices),
        ActionSpec("pass", schema("pass"), [{"type": "pass"}]),
    ]


def legal(state: State, seat: Seat) -> list[ActionSpec]:
    """Return the actions `seat` may take now (empty when it owes nothing)."""
    due = [o for o in owed(state) if o.seat == seat]
    if not due:
        return []
    if due[0].kind == "bid":
        return _bid_specs(state, seat)
    if due[0].kind == "split_choice":
        return [
            ActionSpec("take_all", schema("take_all"), [{"type": "take_all"}]),
            _card_spec("take_one", state.offer),
        ]
    return [_card_spec("choose", state.offer)]

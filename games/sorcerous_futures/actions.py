"""The action objects players send: their shapes, who owes what, and what is legal now."""

from __future__ import annotations

from typing import Any

from games import shapes
from games.base import ActionSpec, InvalidAction, Owed, Seat
from games.sorcerous_futures import assignment
from games.sorcerous_futures.state import (
    CHOOSE,
    CROWNS,
    FORMATS,
    OPEN,
    SEALED,
    State,
    opening_bid,
    sealed_bids,
)

MAX_CHOICES = 20

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


def schema(kind: str, **props: dict[str, Any]) -> dict[str, Any]:
    """Return the JSON Schema of a whole action object of type `kind`."""
    return {
        "type": "object",
        "properties": {"type": {"const": kind}, **props},
        "required": ["type", *props],
        "additionalProperties": False,
    }


def _enum(values: list[Any], kind: str) -> dict[str, Any]:
    return {"type": kind, "enum": values}


def _amount_spec(kind: str, low: int, high: int) -> ActionSpec:
    amounts = range(low, high + 1)
    choices = None
    if len(amounts) <= MAX_CHOICES:
        choices = [{"type": kind, "amount": a} for a in amounts]
    amount = {"type": "integer", "minimum": low, "maximum": high}
    return ActionSpec(kind, schema(kind, amount=amount), choices)


def _crown_specs(state: State) -> list[ActionSpec]:
    holder = state.excuse_holder
    pairs = assignment.steps(state)
    gives = [{"type": "give_crown", "seat": s, "crown": c} for s, c in pairs if s != holder]
    keeps = [{"type": "keep_crown", "crown": c} for s, c in pairs if s == holder]
    specs = [ActionSpec("random_crowns", schema("random_crowns"), [{"type": "random_crowns"}])]
    if gives:
        seats = sorted({a["seat"] for a in gives})
        crowns = sorted({a["crown"] for a in gives})
        body = schema("give_crown", seat=_enum(seats, "integer"), crown=_enum(crowns, "string"))
        specs.append(ActionSpec("give_crown", body, gives))
    if keeps:
        body = schema("keep_crown", crown=_enum([a["crown"] for a in keeps], "string"))
        specs.append(ActionSpec("keep_crown", body, keeps))
    return specs


def _auction_specs(state: State, seat: Seat) -> list[ActionSpec]:
    choices = []
    for card in state.row:
        if state.gold[seat] >= opening_bid(card):
            choices.append({"type": "start_auction", "card": card, "format": "open"})
        choices.append({"type": "start_auction", "card": card, "format": "closed"})
    formats = sorted({c["format"] for c in choices}, key=FORMATS.index)
    body = schema(
        "start_auction", card=_enum(list(state.row), "string"), format=_enum(formats, "string")
    )
    return [ActionSpec("start_auction", body, choices)]


def legal(state: State, seat: Seat) -> list[ActionSpec]:
    """Return the actions `seat` may take now (empty when it owes nothing)."""
    due = [o for o in owed(state) if o.seat == seat]
    if not due:
        return []
    kind = due[0].kind
    if kind == "crowns":
        return _crown_specs(state)
    if kind == "auction":
        return _auction_specs(state, seat)
    if kind == "sealed_bid":
        return [_amount_spec("sealed_bid", 0, state.gold[seat])]
    return [
        _amount_spec("bid", state.high + 1, state.gold[seat]),
        ActionSpec("pass", schema("pass"), [{"type": "pass"}]),
    ]

"""What a seat may do now: one JSON Schema per action type, and every choice when few."""

from __future__ import annotations

from typing import Any

from games.base import ActionSpec, Seat
from games.kit import amount, due, plain, schema
from games.sorcerous_futures import assignment
from games.sorcerous_futures.actions import owed
from games.sorcerous_futures.state import FORMATS, State, opening_bid


def _enum(values: list[Any], kind: str) -> dict[str, Any]:
    return {"type": kind, "enum": values}


def _crown_specs(state: State) -> list[ActionSpec]:
    holder = state.excuse_holder
    pairs = assignment.steps(state)
    gives = [{"type": "give_crown", "seat": s, "crown": c} for s, c in pairs if s != holder]
    keeps = [{"type": "keep_crown", "crown": c} for s, c in pairs if s == holder]
    specs = [plain("random_crowns")]
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
    decision = due(owed(state), seat)
    if decision is None:
        return []
    kind = decision.kind
    if kind == "crowns":
        return _crown_specs(state)
    if kind == "auction":
        return _auction_specs(state, seat)
    if kind == "sealed_bid":
        return [amount("sealed_bid", 0, state.gold[seat])]
    return [amount("bid", state.high + 1, state.gold[seat]), plain("pass")]

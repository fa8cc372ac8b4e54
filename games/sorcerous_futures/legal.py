"""What a seat may do now: one JSON Schema per action type, and every choice when few."""

from __future__ import annotations

from typing import Any

from games.base import ActionSpec, Seat
from games.kit import amount, due, one_of, plain, schema
from games.sorcerous_futures import assignment
from games.sorcerous_futures.actions import owed
from games.sorcerous_futures.state import State, opening_bid


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
        branches = [
            {
                "seat": {"type": "integer", "const": seat},
                "crown": _enum(sorted(a["crown"] for a in gives if a["seat"] == seat), "string"),
            }
            for seat in seats
        ]
        specs.append(ActionSpec("give_crown", one_of("give_crown", branches), gives))
    if keeps:
        body = schema("keep_crown", crown=_enum([a["crown"] for a in keeps], "string"))
        specs.append(ActionSpec("keep_crown", body, keeps))
    return specs


def _auction_specs(state: State, seat: Seat) -> list[ActionSpec]:
    payable = [card for card in state.row if state.gold[seat] >= opening_bid(card)]
    choices = []
    for card in state.row:
        if card in payable:
            choices.append({"type": "start_auction", "card": card, "format": "open"})
        choices.append({"type": "start_auction", "card": card, "format": "closed"})
    branches = [{"card": _enum(list(state.row), "string"), "format": _enum(["closed"], "string")}]
    if payable:
        branches.insert(0, {"card": _enum(payable, "string"), "format": _enum(["open"], "string")})
    return [ActionSpec("start_auction", one_of("start_auction", branches), choices)]


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

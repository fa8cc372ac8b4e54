"""The quick level, and the random player the bench measures against.

Both decide from what a seat is shown: its legal actions (`games.base.ActionSpec`, each
with its JSON Schema and, when few, every choice). The quick level is a weighted random
player with a few sound habits that any of the four games rewards: it bids low (the
minimum, or a little above it, never a random share of everything it holds), it passes
or ends its turn (or discards, in GobCon) less often than it acts, and in Black Market
it produces, trades and sells as a goods game rewards (computer.habits). It costs
microseconds, so it is also the fallback of a search that fails or runs late, and the
model of the other players inside the search's playouts.
"""

from __future__ import annotations

import random
from typing import Any

from computer.habits import HABITS
from games.base import ActionSpec
from games.schemas import value_for

# action types that give up a chance to act (a seat still may, when nothing else is open)
PASSIVE = frozenset(
    {"pass", "decline", "end_turn", "done", "random_crowns", "dismiss_friend", "withdraw"}
    | {"discard"}  # GobCon: a discard ends the play step (Black Market's is a phase alone)
)
# a private offer in Black Market's wild trade: made now and then (the quick level
# accepts, and proposes in regulated trade, readily)
RASH = frozenset({"offer"})
WEIGHTS = {"passive": 1.0, "rash": 0.3, "active": 3.0}


def weight(kind: str) -> float:
    """Return how much more often the quick level takes an action of type `kind`."""
    if kind in PASSIVE:
        return WEIGHTS["passive"]
    if kind in RASH:
        return WEIGHTS["rash"]
    return WEIGHTS["active"]


def _low_amount(choices: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Return a choice near the low end of an `amount` range: the minimum half the time,
    then one step more with every coin flip."""
    ordered = sorted(choices, key=lambda c: c["amount"])
    i = 0
    while i + 1 < len(ordered) and rng.random() < 0.5:
        i += 1
    return ordered[i]


def _value(spec: ActionSpec, rng: random.Random) -> dict[str, Any]:
    habit = HABITS.get(spec.type)
    value = habit(spec, rng) if habit else None
    if value is not None:
        return value
    choices = spec.choices
    if choices and all(set(c) == {"type", "amount"} for c in choices):
        return _low_amount(choices, rng)
    if choices:
        return rng.choice(choices)
    props = spec.schema.get("properties", {})
    amount = props.get("amount")
    if amount and amount.get("type") == "integer":
        low = amount.get("minimum", 0)
        step = 0
        while low + step < amount.get("maximum", low) and rng.random() < 0.5:
            step += 1
        return {"type": spec.type, "amount": low + step}
    return value_for(spec.schema, rng)


def quick(specs: list[ActionSpec], rng: random.Random) -> dict[str, Any]:
    """Return the quick level's action among `specs` (never empty)."""
    weights = [weight(s.type) for s in specs]
    spec = rng.choices(specs, weights=weights)[0]
    return _value(spec, rng)


def uniform(specs: list[ActionSpec], rng: random.Random) -> dict[str, Any]:
    """Return a uniformly random legal action: an action type, then one of its values (the
    reference bot's random strategy, cli/bot.py)."""
    spec = rng.choice(specs)
    if spec.choices:
        return rng.choice(spec.choices)
    return value_for(spec.schema, rng)

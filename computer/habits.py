"""The quick level's habits for goods games (Black Market): which value of an action it
picks, read from the action's own spec (its choices or its schema), never from the state.

Black Market rewards moving goods: produced goods are worth nothing until traded, goods
received go to storage, and only storage goods buy cards or victory points. So the quick
level produces as much as it may, proposes and accepts even deals of a few goods (both
sides turn worthless production into storage), sells for the most points its storage
affords, and bids little for a card. Each habit answers None for an action of another
shape (another game's `discard` or `bid`), which then gets the generic value.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.base import ActionSpec

Habit = Callable[[ActionSpec, random.Random], dict[str, Any] | None]
MAX_DEAL = 3  # goods on each side of a deal the quick level proposes


def _goods_choices(spec: ActionSpec, field: str) -> list[dict[str, Any]] | None:
    """Return every value of a goods action: its choices, or its schema's list of legal
    goods lists when there are too many to list as choices."""
    choices = spec.choices
    if choices and all(isinstance(c.get(field), list) for c in choices):
        return choices
    listed = spec.schema.get("properties", {}).get(field, {}).get("enum")
    if choices is None and listed and all(isinstance(v, list) for v in listed):
        return [{"type": spec.type, field: v} for v in listed]
    return None


def produce(spec: ActionSpec, rng: random.Random) -> dict[str, Any] | None:
    """Produce as many goods as the limit allows (any of the largest productions)."""
    choices = _goods_choices(spec, "goods")
    if choices is None:
        return None
    most = max(len(c["goods"]) for c in choices)
    return rng.choice([c for c in choices if len(c["goods"]) == most])


def _capped(side: dict[str, Any]) -> list[str]:
    """Return every good a bounded goods schema (`allOf` of `maxContains`) admits."""
    return [cap["contains"]["const"] for cap in side["allOf"] for _ in range(cap["maxContains"])]


def deal(spec: ActionSpec, rng: random.Random) -> dict[str, Any] | None:
    """Propose (or offer) an even deal: k goods for k goods, k from 1 to MAX_DEAL."""
    k = rng.randint(1, MAX_DEAL)
    choices = spec.choices
    if choices and all("give" in c and "take" in c for c in choices):
        even = [c for c in choices if len(c["give"]) == len(c["take"]) <= k]
        return rng.choice(even or choices)
    props = spec.schema.get("properties", {})
    if "give" not in props or "take" not in props or "allOf" not in props["give"]:
        return None
    mine, theirs = _capped(props["give"]), _capped(props["take"])
    k = min(k, len(mine), len(theirs))
    value: dict[str, Any] = {"type": spec.type}
    if "to" in props:
        value["to"] = rng.choice(props["to"]["enum"])
    value["give"] = rng.sample(mine, k)
    value["take"] = rng.sample(theirs, k)
    return value


def answer(spec: ActionSpec, rng: random.Random) -> dict[str, Any] | None:
    """Accept four deals in five."""
    if "accept" not in spec.schema.get("properties", {}):
        return None
    return {"type": spec.type, "accept": rng.random() < 0.8}


def sell(spec: ActionSpec, rng: random.Random) -> dict[str, Any] | None:
    """Sell for the most points storage affords in every colour."""
    vp = spec.schema.get("properties", {}).get("vp", {}).get("properties")
    if vp is None:
        return None
    return {"type": spec.type, "vp": {c: p["maximum"] for c, p in vp.items()}}


def bid(spec: ActionSpec, rng: random.Random) -> dict[str, Any] | None:
    """Bid nothing half the time, else one or two goods of one colour."""
    choices = _goods_choices(spec, "goods")
    if choices is None:
        return None
    small = [c for c in choices if 0 < len(c["goods"]) <= 2]
    if not small or rng.random() < 0.5:
        return min(choices, key=lambda c: len(c["goods"]))
    return rng.choice(small)


HABITS: dict[str, Habit] = {
    "produce": produce,
    "propose": deal,
    "offer": deal,
    "answer": answer,
    "sell": sell,
    "bid": bid,
}

"""How a bot picks its move: a strategy is any function `(game, actions, rng) -> action`,
`game` the JSON of `GET /v1/games/{id}` and `actions` the legal actions (as `GET .../legal`
lists them). `marketfold bot --strategy package.module:function` names one; a strategy
with `needs_game = False` gets the game as read when the bot started."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

from games.schemas import random_action

Strategy = Callable[[dict[str, Any], list[dict[str, Any]], random.Random], dict[str, Any]]


def random_strategy(game: dict, actions: list[dict], rng: random.Random) -> dict:
    """Pick any legal action, uniformly over action types, then over their values."""
    return random_action(actions, rng)


random_strategy.needs_game = False  # type: ignore[attr-defined]


def load_strategy(spec: str | None) -> Strategy:
    """Return the strategy named `package.module:function` (the random one by default)."""
    if not spec:
        return random_strategy
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name or "strategy")

"""The pure rules of every game marketfold serves, found by ruleset id."""

from __future__ import annotations

from games.base import Game
from games.goblin_market import GAME as GOBLIN_MARKET

REGISTRY: dict[str, Game] = {GOBLIN_MARKET.id: GOBLIN_MARKET}


def get(ruleset_id: str) -> Game | None:
    """Return the game with id `ruleset_id`, or None if there is none."""
    return REGISTRY.get(ruleset_id)

"""Goblin Market (P.D. Magnus): a Decktet auction game for 3-6 players.

`GAME` is the one object the rest of marketfold uses; docs/rules/goblin-market.md
explains how it plays and where each rule lives.
"""

from __future__ import annotations

from games.base import assemble
from games.goblin_market.actions import legal, owed
from games.goblin_market.evolve import evolve
from games.goblin_market.options import MAX_PLAYERS, MIN_PLAYERS, OPTIONS_SCHEMA, normalize_options
from games.goblin_market.rules import check_invariants, decide, is_over, setup
from games.goblin_market.scoring import result
from games.goblin_market.state import GAME_ID
from games.goblin_market.view import NAMES, redact, view


def ready(state: object) -> None:
    """Return None: Goblin Market has no simultaneous phase."""
    return None


def resolve(state: object, rng: object) -> list:
    """Never called: Goblin Market has no simultaneous phase."""
    raise RuntimeError("Goblin Market has no simultaneous phase to resolve")


GAME = assemble(
    globals(),
    id=GAME_ID,
    names=dict(NAMES),
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    rules_version=1,
    options_schema=OPTIONS_SCHEMA,
)

__all__ = ["GAME"]

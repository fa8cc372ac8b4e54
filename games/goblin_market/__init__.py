"""Goblin Market (P.D. Magnus): a Decktet auction game for 3-6 players.

`GAME` is the one object the rest of marketfold uses; docs/rules/goblin-market.md
explains how it plays and where each rule lives.
"""

from __future__ import annotations

from games.goblin_market.actions import owed
from games.goblin_market.catalogue import card_catalogue
from games.goblin_market.evolve import evolve
from games.goblin_market.invariants import check_invariants
from games.goblin_market.legal import legal
from games.goblin_market.options import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPTION_TEXTS,
    OPTIONS_SCHEMA,
    normalize_options,
)
from games.goblin_market.rules import decide, ready, resolve, setup
from games.goblin_market.scoring import result
from games.goblin_market.state import GAME_ID
from games.goblin_market.view import NAMES, redact, view
from games.kit import assemble, is_over

GAME = assemble(globals(), rules_version=3)

__all__ = ["GAME"]

"""Goblin Market (P.D. Magnus): a Decktet auction game for 3-6 players.

`GAME` is the one object the rest of marketfold uses; docs/rules/goblin-market.md
explains how it plays and where each rule lives.
"""

from __future__ import annotations

from games.archive import LATER_INTERFACE
from games.archive.goblin_market_v1.actions import owed
from games.archive.goblin_market_v1.evolve import evolve
from games.archive.goblin_market_v1.invariants import check_invariants
from games.archive.goblin_market_v1.legal import legal
from games.archive.goblin_market_v1.options import MAX_PLAYERS, MIN_PLAYERS, OPTIONS_SCHEMA, normalize_options
from games.archive.goblin_market_v1.rules import decide, ready, resolve, setup
from games.archive.goblin_market_v1.scoring import result
from games.archive.goblin_market_v1.state import GAME_ID
from games.archive.goblin_market_v1.view import NAMES, redact, view
from games.archive.goblin_market_v1.shared.kit import assemble, is_over

GAME = assemble({**LATER_INTERFACE, **globals()}, rules_version=1)

__all__ = ["GAME"]

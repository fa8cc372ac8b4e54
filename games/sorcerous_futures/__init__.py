"""Sorcerous Futures (Adam Blinkinsop, P.D. Magnus): a Decktet auction game for 3-4 players.

`GAME` is the one object the rest of marketfold uses; docs/rules/sorcerous-futures.md
explains how it plays and where each rule lives.
"""

from __future__ import annotations

from games.base import assemble
from games.sorcerous_futures.actions import legal, owed
from games.sorcerous_futures.evolve import evolve
from games.sorcerous_futures.invariants import check_invariants
from games.sorcerous_futures.options import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPTIONS_SCHEMA,
    normalize_options,
)
from games.sorcerous_futures.rules import decide, is_over, ready, resolve, setup
from games.sorcerous_futures.scoring import result
from games.sorcerous_futures.state import GAME_ID
from games.sorcerous_futures.view import NAMES, redact, view

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

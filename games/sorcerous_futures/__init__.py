"""Sorcerous Futures (Adam Blinkinsop, P.D. Magnus): a Decktet auction game for 3-4 players.

`GAME` is the one object the rest of marketfold uses; docs/rules/sorcerous-futures.md
explains how it plays and where each rule lives.
"""

from __future__ import annotations

from games.kit import assemble, is_over
from games.sorcerous_futures.actions import owed
from games.sorcerous_futures.catalogue import card_catalogue
from games.sorcerous_futures.evolve import evolve
from games.sorcerous_futures.invariants import check_invariants
from games.sorcerous_futures.legal import legal
from games.sorcerous_futures.options import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPTION_TEXTS,
    OPTIONS_SCHEMA,
    normalize_options,
)
from games.sorcerous_futures.rules import decide, ready, resolve, setup
from games.sorcerous_futures.scoring import result
from games.sorcerous_futures.state import GAME_ID
from games.sorcerous_futures.view import NAMES, redact, view

GAME = assemble(globals(), rules_version=1)

__all__ = ["GAME"]

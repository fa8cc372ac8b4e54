"""GobCon (The Goblin's Lair): a card game of Friends, Items, Games and Specials, 2-6 players.

`GAME` is the one object the rest of marketfold uses; docs/rules/gobcon.md explains how it
plays, the project's own default deck, and where each rule lives.
"""

from __future__ import annotations

from games.gobcon.actions import owed
from games.gobcon.catalogue import card_catalogue
from games.gobcon.evolve import evolve
from games.gobcon.invariants import check_invariants
from games.gobcon.legal import legal
from games.gobcon.options import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPTION_TEXTS,
    OPTIONS_SCHEMA,
    normalize_options,
)
from games.gobcon.rules import decide, ready, resolve, setup
from games.gobcon.scoring import result
from games.gobcon.state import GAME_ID
from games.gobcon.view import NAMES, redact, view
from games.kit import assemble, is_over

GAME = assemble(globals(), rules_version=3)

__all__ = ["GAME"]

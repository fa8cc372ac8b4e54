"""GobCon (The Goblin's Lair): a card game of Friends, Items, Games and Specials, 2-6 players.

`GAME` is the one object the rest of marketfold uses; docs/rules/gobcon.md explains how it
plays, the project's own default deck, and where each rule lives.
"""

from __future__ import annotations

from games.archive.gobcon_v1.actions import owed
from games.archive.gobcon_v1.catalogue import card_catalogue
from games.archive.gobcon_v1.evolve import evolve
from games.archive.gobcon_v1.invariants import check_invariants
from games.archive.gobcon_v1.legal import legal
from games.archive.gobcon_v1.options import MAX_PLAYERS, MIN_PLAYERS, OPTIONS_SCHEMA, normalize_options
from games.archive.gobcon_v1.rules import decide, ready, resolve, setup
from games.archive.gobcon_v1.scoring import result
from games.archive.gobcon_v1.state import GAME_ID
from games.archive.gobcon_v1.view import NAMES, redact, view
from games.archive.gobcon_v1.shared.kit import assemble, is_over

GAME = assemble(globals(), rules_version=1)

__all__ = ["GAME"]

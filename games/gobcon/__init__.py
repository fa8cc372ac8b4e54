"""GobCon (The Goblin's Lair): a card game of Friends, Items, Games and Specials, 2-6 players.

`GAME` is the one object the rest of marketfold uses; docs/rules/gobcon.md explains how it
plays, the project's own default deck, and where each rule lives.
"""

from __future__ import annotations

from games.base import assemble
from games.gobcon.actions import legal, owed
from games.gobcon.evolve import evolve
from games.gobcon.invariants import check_invariants
from games.gobcon.options import MAX_PLAYERS, MIN_PLAYERS, OPTIONS_SCHEMA, normalize_options
from games.gobcon.rules import decide, is_over, ready, resolve, setup
from games.gobcon.scoring import result
from games.gobcon.state import GAME_ID
from games.gobcon.view import NAMES, redact, view

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

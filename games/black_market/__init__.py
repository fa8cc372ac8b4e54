"""Black Market (Andreas Steding): a trading game of goods, prices and victory points, 3-6 players.

`GAME` is the one object the rest of marketfold uses; docs/rules/black-market.md explains
how it plays and where each rule lives.
"""

from __future__ import annotations

from games.base import assemble
from games.black_market.actions import owed
from games.black_market.evolve import evolve
from games.black_market.legal import legal
from games.black_market.options import MAX_PLAYERS, MIN_PLAYERS, OPTIONS_SCHEMA, normalize_options
from games.black_market.rules import check_invariants, decide, is_over, ready, resolve, setup
from games.black_market.scoring import result
from games.black_market.state import GAME_ID
from games.black_market.view import NAMES, redact, view

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

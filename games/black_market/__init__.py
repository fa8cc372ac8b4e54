"""Black Market (Andreas Steding): a trading game of goods, prices and victory points, 3-6 players.

`GAME` is the one object the rest of marketfold uses; docs/rules/black-market.md explains
how it plays and where each rule lives.
"""

from __future__ import annotations

from games.black_market.actions import owed
from games.black_market.catalogue import card_catalogue
from games.black_market.evolve import evolve
from games.black_market.invariants import check_invariants
from games.black_market.legal import legal
from games.black_market.options import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPTION_TEXTS,
    OPTIONS_SCHEMA,
    normalize_options,
)
from games.black_market.rules import decide, ready, resolve, setup
from games.black_market.scoring import result
from games.black_market.state import GAME_ID, WILD_TRADE
from games.black_market.view import NAMES, redact, view
from games.kit import assemble, is_over

# Wild trade's private steps (offers, declines, withdrawals) go to the game's private log,
# so that others learn nothing of them, not even when or how many (from rules version 3;
# docs/architecture.md, "Private steps").
PRIVATE_LOG = True


def keeps_private_log(options: dict) -> bool:
    """Only wild trade has private steps: a regulated game's private log stays empty."""
    return options.get("trade") == WILD_TRADE


GAME = assemble(globals(), rules_version=3)

__all__ = ["GAME"]

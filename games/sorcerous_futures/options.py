"""The game's options: their JSON Schema and how they are checked."""

from __future__ import annotations

from typing import Any

from games import shapes
from games.base import OptionError

MIN_PLAYERS, MAX_PLAYERS = 3, 4
SLY_PLAYERS = 4
OPTIONS_SCHEMA = shapes.options_schema(
    sly_excuse={
        "type": "boolean",
        "default": False,
        "description": "four players only: the Excuse holder sees the seven valuation cards "
        "(not which suit each one values)",
    },
)
OPTION_TEXTS = {
    "es": {
        "sly_excuse": "solo con cuatro jugadores: quien tiene la Excusa ve las siete cartas "
        "de valoración (no qué palo valora cada una)",
    }
}


def normalize_options(options: dict[str, Any] | None, players: int) -> dict[str, Any]:
    """Fill defaults and check `options`; raise OptionError naming the field."""
    shapes.players(players, "Sorcerous Futures", MIN_PLAYERS, MAX_PLAYERS)
    out = shapes.options(options, OPTIONS_SCHEMA)
    if out["sly_excuse"] and players != SLY_PLAYERS:
        raise OptionError("sly_excuse", "the Sly Excuse variant needs four players")
    return out

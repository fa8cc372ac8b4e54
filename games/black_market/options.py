"""The game's options: their JSON Schema and how they are checked."""

from __future__ import annotations

from typing import Any

from games import shapes
from games.black_market.state import REGULATED, WILD_TRADE

MIN_PLAYERS, MAX_PLAYERS = 3, 6
TRADE_MODES = (REGULATED, WILD_TRADE)
OPTIONS_SCHEMA = shapes.options_schema(
    trade={
        "type": "string",
        "enum": list(TRADE_MODES),
        "default": REGULATED,
        "description": "regulated: three rounds of proposals in turn; "
        "wild: private offers to anyone until all but one player are done",
    },
)
OPTION_TEXTS = {
    "es": {
        "trade": "regulated: tres rondas de propuestas por turno; "
        "wild: ofertas privadas a cualquiera hasta que todos menos uno hayan terminado",
    }
}


def normalize_options(options: dict[str, Any] | None, players: int) -> dict[str, Any]:
    """Fill defaults and check `options`; raise OptionError naming the field."""
    shapes.players(players, "Black Market", MIN_PLAYERS, MAX_PLAYERS)
    return shapes.options(options, OPTIONS_SCHEMA)

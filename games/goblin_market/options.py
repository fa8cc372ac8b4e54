"""The game's options: their JSON Schema and how they are checked."""

from __future__ import annotations

from typing import Any

from games import shapes

MIN_PLAYERS, MAX_PLAYERS = 3, 6
EDITIONS = ("en", "es")
OPTIONS_SCHEMA = shapes.options_schema(
    edition={
        "type": "string",
        "enum": list(EDITIONS),
        "default": "en",
        "description": "en: a tie is broken by positive points; es: tied players share the win",
    },
    courts={
        "type": "boolean",
        "default": True,
        "description": "false builds the Goblin Deck from the four Pawns only",
    },
)
OPTION_TEXTS = {
    "es": {
        "edition": "en: un empate se rompe por los puntos positivos; "
        "es: los empatados comparten la victoria",
        "courts": "false forma el mazo duende solo con los cuatro Peones",
    }
}


def normalize_options(options: dict[str, Any] | None, players: int) -> dict[str, Any]:
    """Fill defaults and check `options`; raise OptionError naming the field."""
    shapes.players(players, "Goblin Market", MIN_PLAYERS, MAX_PLAYERS)
    return shapes.options(options, OPTIONS_SCHEMA)

"""The game's options: their JSON Schema and how they are checked."""

from __future__ import annotations

from typing import Any

from games.base import OptionError

MIN_PLAYERS, MAX_PLAYERS = 3, 6
EDITIONS = ("en", "es")
DEFAULTS: dict[str, Any] = {"edition": "en", "courts": True}

OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "edition": {
            "type": "string",
            "enum": list(EDITIONS),
            "default": "en",
            "description": "en: a tie is broken by positive points; es: tied players share the win",
        },
        "courts": {
            "type": "boolean",
            "default": True,
            "description": "false builds the Goblin Deck from the four Pawns only",
        },
    },
    "additionalProperties": False,
}


def normalize_options(options: dict[str, Any] | None, players: int) -> dict[str, Any]:
    """Fill defaults and check `options`; raise OptionError naming the field."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise OptionError("options", "must be an object")
    for name in options:
        if name not in DEFAULTS:
            raise OptionError(str(name), "unknown option")
    out = {**DEFAULTS, **options}
    if out["edition"] not in EDITIONS:
        raise OptionError("edition", f"must be one of {list(EDITIONS)}")
    if not isinstance(out["courts"], bool):
        raise OptionError("courts", "must be true or false")
    if isinstance(players, bool) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise OptionError("players", f"Goblin Market takes {MIN_PLAYERS} to {MAX_PLAYERS} players")
    return out

"""The game's options: their JSON Schema and how they are checked."""

from __future__ import annotations

from typing import Any

from games.base import OptionError

MIN_PLAYERS, MAX_PLAYERS = 3, 4
SLY_PLAYERS = 4
DEFAULTS: dict[str, Any] = {"sly_excuse": False}

OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "sly_excuse": {
            "type": "boolean",
            "default": False,
            "description": "four players only: the Excuse holder sees the seven valuation cards "
            "(not which suit each one values)",
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
    if isinstance(players, bool) or not isinstance(players, int):
        raise OptionError("players", "must be an integer")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise OptionError(
            "players", f"Sorcerous Futures takes {MIN_PLAYERS} to {MAX_PLAYERS} players"
        )
    if not isinstance(out["sly_excuse"], bool):
        raise OptionError("sly_excuse", "must be true or false")
    if out["sly_excuse"] and players != SLY_PLAYERS:
        raise OptionError("sly_excuse", "the Sly Excuse variant needs four players")
    return out

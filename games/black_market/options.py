"""The game's options: their JSON Schema and how they are checked."""

from __future__ import annotations

from typing import Any

from games.base import OptionError
from games.black_market.state import REGULATED, WILD_TRADE

MIN_PLAYERS, MAX_PLAYERS = 3, 6
TRADE_MODES = (REGULATED, WILD_TRADE)
DEFAULTS: dict[str, Any] = {"trade": REGULATED}

OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "trade": {
            "type": "string",
            "enum": list(TRADE_MODES),
            "default": REGULATED,
            "description": "regulated: three rounds of proposals in turn; "
            "wild: private offers to anyone until all but one player are done",
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
    if out["trade"] not in TRADE_MODES:
        raise OptionError("trade", f"must be one of {list(TRADE_MODES)}")
    if isinstance(players, bool) or not isinstance(players, int):
        raise OptionError("players", "must be an integer")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise OptionError("players", f"Black Market takes {MIN_PLAYERS} to {MAX_PLAYERS} players")
    return out

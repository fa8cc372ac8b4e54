"""The game's options: their JSON Schema, defaults, and how they are checked."""

from __future__ import annotations

from typing import Any

from games import shapes
from games.base import OptionError
from games.gobcon.cards import default_deck
from games.gobcon.deck import normalize_deck

MIN_PLAYERS, MAX_PLAYERS = 2, 6
DEFAULT_GOAL = 20
MIN_GOAL, MAX_GOAL = 20, 100
OPTIONS_SCHEMA = shapes.options_schema(
    goal={
        "type": "integer",
        "minimum": MIN_GOAL,
        "maximum": MAX_GOAL,
        "default": DEFAULT_GOAL,
        "description": "the game ends as soon as a player's score reaches this many GP",
    },
    time_limit={
        "type": ["integer", "null"],
        "minimum": 1,
        "default": None,
        "description": "a number of rounds: after the last turn of that round, most GP wins",
    },
    end_on_empty_deck={
        "type": "boolean",
        "default": False,
        "description": "end the game when the last card is drawn, instead of reshuffling",
    },
    deck={
        "oneOf": [
            {"const": "default"},
            {"type": "object", "required": ["cards"]},
        ],
        "default": "default",
        "description": '"default" (the shipped deck) or a deck object of the same format',
    },
)
OPTION_TEXTS = {
    "es": {
        "goal": "la partida acaba en cuanto la puntuación de un jugador llega a tantos GP",
        "time_limit": "un número de rondas: tras el último turno de esa ronda, gana quien "
        "tenga más GP",
        "end_on_empty_deck": "acabar la partida al robar la última carta, en vez de barajar "
        "de nuevo",
        "deck": '"default" (el mazo incluido) o un objeto de mazo del mismo formato',
    }
}


def _positive(value: Any, name: str, nullable: bool = False) -> int | None:
    if value is None and nullable:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise OptionError(name, "must be a positive integer" + (" or null" if nullable else ""))
    return value


def normalize_options(options: dict[str, Any] | None, players: int) -> dict[str, Any]:
    """Fill defaults and check `options`; raise OptionError naming the field."""
    shapes.players(players, "GobCon", MIN_PLAYERS, MAX_PLAYERS)
    out = shapes.options(options, OPTIONS_SCHEMA)
    out["goal"] = _positive(out["goal"], "goal")
    if not MIN_GOAL <= out["goal"] <= MAX_GOAL:
        raise OptionError("goal", f"must be from {MIN_GOAL} to {MAX_GOAL}")
    out["time_limit"] = _positive(out["time_limit"], "time_limit", nullable=True)
    if out["deck"] != "default":
        if isinstance(out["deck"], str):
            raise OptionError("deck", 'must be "default" or a deck object')
        out["deck"] = normalize_deck(out["deck"])
    return out


def deck_of(options: dict[str, Any]) -> dict[str, Any]:
    """Return the normalized deck the options name."""
    deck = options["deck"]
    return normalize_deck(default_deck()) if deck == "default" else deck

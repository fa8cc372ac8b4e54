"""GobCon cards as data: the four colours, what each card does, and the physical copies.

A deck is JSON (`games/data/gobcon_deck.json` is the default one): a list of distinct
cards, each with a `count`. Every physical copy gets an instance id `<card id>#<k>`
(k = 1..count), so conservation can be checked card by card.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

CATEGORIES = ("3D", "Board", "Card", "RPG")
TYPES = ("friend", "item", "game", "special")
# Goblin faces from worst to best: a step up or down moves one place along this ladder.
FACES = ("darth", "black", "green", "king")
DARTH, BLACK, GREEN, KING = range(4)
DIE_FACE = {1: DARTH, 2: BLACK, 3: BLACK, 4: GREEN, 5: GREEN, 6: KING}

FRIEND_ABILITIES = ("none", "bonus", "malus", "all_bonus", "fair_play", "good_loser", "logorrea")
SPECIAL_EFFECTS = (
    "bonus",
    "malus",
    "prohibition",
    "gp",
    "cancel",
    "aex_equo",
    "remove_logorrea",
    "lift_prohibitions",
)
KEPT_EFFECTS = ("bonus", "malus", "prohibition", "gp", "aex_equo")
TIMINGS = ("your_turn", "any_time")
DECK_SIZE = 117
HAND_SIZE = 5
DEFAULT_DECK_FILE = Path(__file__).resolve().parent.parent / "data" / "gobcon_v2" / "gobcon_deck.json"


@dataclass(frozen=True)
class Card:
    """One distinct card. `kind` is a Friend's ability or a Special's effect."""

    id: str
    type: str
    name: dict[str, str]
    count: int
    gp: int = 0
    category: str | None = None
    kind: str | None = None
    table: tuple[int, int, int, int] = (0, 0, 0, 0)  # Game GP by face, darth..king
    keep: bool = False
    timing: str = "your_turn"
    text: dict[str, str] | None = None

    @property
    def any_time(self) -> bool:
        """Return True for a Special that may be played during an opponent's turn."""
        return self.type == "special" and self.timing == "any_time"

    @property
    def targets_other(self) -> bool:
        """Return True for a Special that lands on an opponent (malus, ban, negative GP)."""
        if self.type != "special":
            return False
        return self.kind in ("malus", "prohibition") or (self.kind == "gp" and self.gp < 0)


def card_from_json(data: dict[str, Any]) -> Card:
    """Build a Card from one entry of a normalized deck."""
    base = {
        "id": data["id"],
        "type": data["type"],
        "name": dict(data["name"]),
        "count": data["count"],
        "text": dict(data["text"]) if data.get("text") else None,
    }
    kind = data["type"]
    if kind == "friend":
        ability = data["ability"]
        return Card(**base, gp=data["gp"], kind=ability["kind"], category=ability.get("category"))
    if kind == "item":
        return Card(**base, gp=data["gp"], category=data.get("category"))
    if kind == "game":
        table = tuple(data["table"][face] for face in FACES)
        return Card(**base, category=data["category"], table=table)  # type: ignore[arg-type]
    effect = data["effect"]
    return Card(
        **base,
        gp=effect.get("gp", 0),
        kind=effect["kind"],
        category=effect.get("category"),
        keep=data["keep"],
        timing=data["timing"],
    )


def catalog_of(deck: dict[str, Any]) -> dict[str, Card]:
    """Return the cards of a normalized deck by id, in deck order."""
    return {c["id"]: card_from_json(c) for c in deck["cards"]}


def instances(catalog: dict[str, Card]) -> list[str]:
    """Return every physical card's instance id, in deck order."""
    return [f"{card.id}#{k}" for card in catalog.values() for k in range(1, card.count + 1)]


def base_id(instance: str) -> str:
    """Return the card id of an instance id (`not-so-fast#3` -> `not-so-fast`)."""
    return instance.rsplit("#", 1)[0]


@cache
def default_deck_json() -> str:
    """Return the text of the shipped default deck."""
    return DEFAULT_DECK_FILE.read_text("utf-8")


def default_deck() -> dict[str, Any]:
    """Return the shipped default deck as (raw) JSON data."""
    return json.loads(default_deck_json())

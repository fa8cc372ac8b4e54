"""The Decktet: its cards as data, and the ways games group them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

SUITS = ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots")
NUMBER_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9")


@dataclass(frozen=True)
class Card:
    name: str
    rank: str  # "Ace", "2".."9", "Crown", "Pawn", "Court", "Excuse"
    suits: tuple[str, ...]

    @property
    def is_number(self) -> bool:
        return self.rank in NUMBER_RANKS


@cache
def cards() -> dict[str, Card]:
    """Return every card of the extended Decktet by name, in the data file's order."""
    raw = json.loads((Path(__file__).resolve().parents[2] / "data" / "goblin_market_v2" / "decktet.json").read_text("utf-8"))
    return {c["name"]: Card(c["name"], c["rank"], tuple(c["suits"])) for c in raw}


def basic_deck() -> list[str]:
    """Return the 36 cards of the basic deck: Aces, numbers 2-9 and Crowns."""
    return [c.name for c in cards().values() if c.rank == "Ace" or c.is_number or c.rank == "Crown"]


def of_rank(*ranks: str) -> list[str]:
    """Return the names of the cards of the given ranks, in data order."""
    return [c.name for c in cards().values() if c.rank in ranks]

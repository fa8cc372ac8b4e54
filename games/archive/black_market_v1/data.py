"""The swap-meet table and the information cards, loaded from games/data/black_market_*.json."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "data" / "black_market_v1"


def _load(name: str) -> Any:
    return json.loads((DATA / name).read_text("utf-8"))


@dataclass(frozen=True)
class Row:
    """One row of the exchange-value side: goods on offer and the cubes for 1-4 VP."""

    row: int
    offer: int
    costs: tuple[int, ...]


@dataclass(frozen=True)
class Card:
    """One information card: its id, names and text by language, and its effect."""

    id: str
    published: bool
    names: dict[str, str]
    text: dict[str, str]
    effect: dict[str, Any]


@cache
def table() -> dict[str, Any]:
    """Return the raw swap-meet table data."""
    return _load("black_market_table.json")


@cache
def cards() -> dict[str, Card]:
    """Return the ten information cards by id, in data order."""
    raw = _load("black_market_cards.json")
    return {c["id"]: Card(c["id"], c["published"], c["names"], c["text"], c["effect"]) for c in raw}


COLOURS: tuple[str, ...] = tuple(c["id"] for c in table()["colours"])
COLOUR_NAMES: dict[str, dict[str, str]] = {
    c["id"]: {"en": c["en"], "es": c["es"]} for c in table()["colours"]
}
ROWS: dict[int, Row] = {
    r["row"]: Row(r["row"], r["offer"], tuple(r["costs"])) for r in table()["rows"]
}
MIN_ROW, MAX_ROW = min(ROWS), max(ROWS)
VP_TRACK: tuple[tuple[int, int], ...] = tuple(tuple(step) for step in table()["vp_track"])
TOP_STEP = len(VP_TRACK) - 1
SETUP_ROWS: tuple[int, ...] = tuple(table()["setup_rows"])
SETUP_STEPS: tuple[int, ...] = tuple(table()["setup_steps"])
SUPPLY: dict[int, int] = {int(k): v for k, v in table()["supply"].items()}
SET_POINTS: tuple[int, ...] = tuple(table()["card_set_points"])
LIMITS: dict[str, int] = dict(table()["limits"])
CARD_IDS: tuple[str, ...] = tuple(cards())


def set_points(count: int) -> int:
    """Return the VP for holding `count` information cards (1, 3, 6, 10, 15 for 5+)."""
    return SET_POINTS[min(count, len(SET_POINTS) - 1)]


def cost_of(row: int, vp: int) -> int:
    """Return how many cubes buy `vp` (1-4) victory points at `row`."""
    return ROWS[row].costs[vp - 1]


def max_vp(row: int, cubes: int) -> int:
    """Return the most VP (0-4) that `cubes` cubes can buy at `row`."""
    return sum(1 for cost in ROWS[row].costs if cost <= cubes)

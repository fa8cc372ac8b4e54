"""Each card's short rules text, as data: the Decktet's texts by ruleset and rank, and the
catalogue entry of a Decktet card (`games/data/decktet_texts.json`).

A Decktet card does something different in every game, so its text belongs to a ruleset:
the file holds one English and one Spanish text per ruleset and rank (`number` for 2-9),
with `{suits}` and `{rank}` filled in from the card.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from games.archive.goblin_market_v2.shared.decktet import cards
from games.archive.goblin_market_v2.shared.decktet_names import card_json, rank_name, suit_name

LANGS = ("en", "es")
AND = {"en": " and ", "es": " y "}


@cache
def _texts() -> dict[str, dict[str, dict[str, str]]]:
    path = Path(__file__).resolve().parents[2] / "data" / "goblin_market_v2" / "decktet_texts.json"
    return json.loads(path.read_text("utf-8"))


def decktet_text(ruleset: str, name: str, lang: str) -> str:
    """Return what Decktet card `name` does in `ruleset`, in `lang` (en unless es)."""
    lang = lang if lang in LANGS else "en"
    card = cards()[name]
    by_rank = _texts()[ruleset]
    template = by_rank["number" if card.is_number else card.rank][lang]
    suits = AND[lang].join(suit_name(s, lang) for s in card.suits)
    return template.format(suits=suits, rank=rank_name(card.rank, lang))


def decktet_catalogue(ruleset: str, names: list[str], lang: str) -> list[dict[str, Any]]:
    """Return the catalogue entries of Decktet cards `names` as played in `ruleset`."""
    return [{**card_json(name, lang), "text": decktet_text(ruleset, name, lang)} for name in names]

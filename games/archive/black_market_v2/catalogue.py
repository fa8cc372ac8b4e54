"""Black Market's ten information cards, with their names and texts."""

from __future__ import annotations

from typing import Any

from games.archive.black_market_v2.data import cards


def card_catalogue(options: dict[str, Any] | None, lang: str) -> list[dict[str, Any]]:
    """Return every information card in data order: names and texts in `lang` (English
    when the file has no text in it), whether it is a published card, and its effect."""
    return [
        {
            "id": card.id,
            "name": card.names.get(lang, card.names["en"]),
            "text": card.text.get(lang, card.text["en"]),
            "published": card.published,
            "effect": card.effect,
        }
        for card in cards().values()
    ]

"""Every card Sorcerous Futures uses, with its name and what it does here."""

from __future__ import annotations

from typing import Any

from games.card_texts import decktet_catalogue
from games.sorcerous_futures.state import EXCUSE, GAME_ID, all_aces, all_crowns, valuation_cards


def card_catalogue(options: dict[str, Any] | None, lang: str) -> list[dict[str, Any]]:
    """Return the Aces, the number cards and Pawns, the Crowns and the Excuse."""
    names = all_aces() + valuation_cards() + all_crowns() + [EXCUSE]
    return decktet_catalogue(GAME_ID, names, lang)

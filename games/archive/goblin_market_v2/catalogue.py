"""Every card Goblin Market can use, with its name and what it does here."""

from __future__ import annotations

from typing import Any

from games.archive.goblin_market_v2.shared.card_texts import decktet_catalogue
from games.archive.goblin_market_v2.shared.decktet import basic_deck, of_rank
from games.archive.goblin_market_v2.state import GAME_ID


def card_catalogue(options: dict[str, Any] | None, lang: str) -> list[dict[str, Any]]:
    """Return the auction deck's 36 cards, then the goblin deck's Pawns and Courts (the
    Courts only when option `courts` is on, as by default)."""
    goblins = ("Pawn", "Court") if (options or {}).get("courts", True) else ("Pawn",)
    return decktet_catalogue(GAME_ID, basic_deck() + of_rank(*goblins), lang)

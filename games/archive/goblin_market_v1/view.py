"""What a seat or a spectator sees: everything on the table, never the order of a deck."""

from __future__ import annotations

from typing import Any

from games.base import Seat
from games.archive.goblin_market_v1.shared.decktet_names import card_json, cards_json
from games.archive.goblin_market_v1.actions import owed
from games.archive.goblin_market_v1.events import EVENTS
from games.archive.goblin_market_v1.scoring import result, scores
from games.archive.goblin_market_v1.state import GAME_ID, State, next_opener
from games.archive.goblin_market_v1.shared.kit import OVER, heading, owed_json

NAMES = {"en": "Goblin Market", "es": "El Mercado de los Duendes"}


def _auction(state: State, lang: str) -> dict[str, Any]:
    size_card = state.size_card
    return {
        "number": state.auctions,
        "final": state.final,
        "size_card": card_json(size_card, lang) if size_card else None,
        "size": state.size,
        "offer": cards_json(state.offer, lang),
        "opener": state.opener,
        "bids": [{"seat": seat, "amount": amount} for seat, amount in state.bids],
        "high_bid": state.high,
        "high_bidder": state.high_bidder,
        "passed": list(state.passed),
        "to_act": state.to_act,
        "winner": state.winner,
        "received": list(state.receivers),
    }


def _players(state: State, lang: str) -> list[dict[str, Any]]:
    table = scores(state)
    return [
        {
            "seat": seat,
            "coins": state.coins[i],
            "cards": cards_json(state.owned[i], lang),
            "score": table[i].score,
            "positive": table[i].positive,
            "suits": table[i].suits,
        }
        for i, seat in enumerate(state.order)
    ]


def view(state: State, seat: Seat | None, lang: str) -> dict[str, Any]:
    """Return the table as `seat` sees it (None: a spectator); card names in `lang`."""
    shown = state.goblin_shown
    return {
        **heading(GAME_ID, NAMES, state, seat, lang),
        "edition": state.edition,
        "courts": state.courts,
        "phase": state.phase,
        "order": list(state.order),
        "owed": owed_json(owed(state)),
        "next_opener": next_opener(state),
        "auction": _auction(state, lang),
        "players": _players(state, lang),
        "auction_deck_size": len(state.auction_deck),
        "goblin_deck_size": len(state.goblin_deck),
        "size_cards": cards_json(state.set_aside, lang),
        "discards": cards_json(state.discards, lang),
        "goblin_card": card_json(shown, lang) if shown else None,
        "goblin_revealed": cards_json(state.goblin_used, lang),
        "winners": list(result(state).winners) if state.phase == OVER else None,
    }


redact = EVENTS.redact

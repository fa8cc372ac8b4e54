"""What a seat or a spectator sees: the whole table, its own secrets, never another's."""

from __future__ import annotations

from typing import Any

from games.base import Seat
from games.archive.black_market_v1.actions import owed
from games.archive.black_market_v1.data import COLOUR_NAMES, COLOURS, ROWS, VP_TRACK, cards
from games.archive.black_market_v1.events import EVENTS
from games.archive.black_market_v1.goods import to_json
from games.archive.black_market_v1.scoring import result, scores
from games.archive.black_market_v1.state import (
    GAME_ID,
    SECRET,
    State,
    production_limit,
    proposer,
    sealed_of,
    storage_limit,
    wildcards,
)
from games.archive.black_market_v1.shared.kit import OVER, heading, owed_json

NAMES = {"en": "Black Market", "es": "Mercado negro"}


def card_json(card: str, lang: str) -> dict[str, Any]:
    """Return an information card as the API shows it, in `lang`."""
    c = cards()[card]
    return {
        "id": c.id,
        "name": c.names.get(lang, c.names["en"]),
        "text": c.text.get(lang, c.text["en"]),
        "published": c.published,
    }


def _colours(state: State, lang: str) -> list[dict[str, Any]]:
    out = []
    for c, colour in enumerate(COLOURS):
        row, step = state.rows[c], state.steps[c]
        table = ROWS.get(row)  # None until the exchange values are drawn at setup
        out.append(
            {
                "id": colour,
                "name": COLOUR_NAMES[colour].get(lang, colour),
                "row": row,
                "offer_size": table.offer if table else None,
                "costs": list(table.costs) if table else [],
                "vp_step": step,
                "vp_value": list(VP_TRACK[step]),
                "supply": state.supply[c],
                "on_offer": state.offer[c],
            }
        )
    return out


def _players(state: State, lang: str) -> list[dict[str, Any]]:
    table = scores(state)
    return [
        {
            "seat": seat,
            "production": to_json(state.production[seat], full=True),
            "storage": to_json(state.storage[seat], full=True),
            "aside": to_json(state.aside[seat], full=True),
            "vp": to_json(state.vp[seat], full=True),
            "cards": [card_json(c, lang) for c in state.cards[seat]],
            "production_limit": production_limit(state, seat),
            "wildcards": wildcards(state, seat),
            "storage_limit": storage_limit(state, seat),
            "score": table[seat].to_json(),
        }
        for seat in state.order
    ]


def _trade(state: State, seat: Seat | None) -> dict[str, Any]:
    deal = state.deal
    return {
        "mode": state.trade,
        "starter": state.starter,
        "turns": list(state.turns),
        "turn": state.turn,
        "proposer": proposer(state) if state.turns else None,
        "deal": {"give": to_json(deal[0]), "take": to_json(deal[1])} if deal else None,
        "acceptors": list(state.acceptors),
        "offers": [
            {
                "id": o.id,
                "from": o.frm,
                "to": o.to,
                "give": to_json(o.give),
                "take": to_json(o.take),
            }
            for o in state.offers
            if seat is not None and seat in (o.frm, o.to)
        ],
    }


def _auction(state: State) -> dict[str, Any]:
    return {
        "winner": state.winner,
        "last_bids": [
            {"seat": s, "colour": COLOURS[c] if c >= 0 else None, "count": n}
            for s, c, n in state.last_bids
        ],
    }


def view(state: State, seat: Seat | None, lang: str) -> dict[str, Any]:
    """Return the table as `seat` sees it (None: a spectator); names in `lang`."""
    mine = sealed_of(state, seat) if seat is not None and state.phase in SECRET else None
    return {
        **heading(GAME_ID, NAMES, state, seat, lang),
        "phase": state.phase,
        "round": state.round,
        "final": state.final,
        "end_reason": state.end_reason,
        "order": list(state.order),
        "owed": owed_json(owed(state)),
        "expected": list(state.expected),
        "submitted": list(state.submitted),
        "your_submission": mine,
        "colours": _colours(state, lang),
        "players": _players(state, lang),
        "card": card_json(state.card, lang) if state.card else None,
        "deck_size": len(state.deck),
        "removed": [card_json(c, lang) for c in state.removed],
        "trade": _trade(state, seat),
        "auction": _auction(state),
        "winners": list(result(state).winners) if state.phase == OVER else None,
    }


redact = EVENTS.redact

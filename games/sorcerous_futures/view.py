"""What a seat or a spectator sees, and the public part of each secret event."""

from __future__ import annotations

from typing import Any

from games.base import Seat
from games.decktet_names import card_json, cards_json
from games.kit import OVER, heading, owed_json
from games.sorcerous_futures.actions import owed
from games.sorcerous_futures.events import EVENTS
from games.sorcerous_futures.flow import DATA_ORDER
from games.sorcerous_futures.scoring import result
from games.sorcerous_futures.state import (
    EXCUSE,
    GAME_ID,
    GROUPS,
    SEALED,
    State,
    owner_of,
    sealed_bids,
)

NAMES = {"en": "Sorcerous Futures", "es": "Sorcerous Futures"}


def sees_valuation(state: State, seat: Seat | None, under: str) -> bool:
    """Return True if `seat` may see the card under an Ace or the Excuse."""
    if state.revealed or (under == EXCUSE and state.excuse_revealed):
        return True
    return seat is not None and owner_of(state, under) == seat


def sees_crown(state: State, seat: Seat | None, of: Seat) -> bool:
    """Return True if `seat` may know the Crown of seat `of`."""
    if state.revealed:
        return True
    return seat is not None and seat in (of, state.excuse_holder)


def _card(name: str | None, lang: str) -> dict[str, Any] | None:
    return card_json(name, lang) if name else None


def _valuations(state: State, seat: Seat | None, lang: str) -> list[dict[str, Any]]:
    return [
        {
            "under": card_json(under, lang),
            "seat": owner_of(state, under),
            "card": _card(card, lang) if sees_valuation(state, seat, under) else None,
        }
        for under, card in state.valuations
    ]


def _players(state: State, seat: Seat | None, lang: str) -> list[dict[str, Any]]:
    return [
        {
            "seat": s,
            "gold": state.gold[s],
            "aces": cards_json(state.aces[s], lang),
            "cards": cards_json(state.owned[s], lang),
            "has_crown": state.crowns[s] is not None,
            "crown": _card(state.crowns[s], lang) if sees_crown(state, seat, s) else None,
        }
        for s in state.order
    ]


def _holder_secrets(state: State, seat: Seat | None, lang: str) -> dict[str, Any]:
    holder = seat is not None and seat == state.excuse_holder
    pool = sorted((c for _, c in state.valuations), key=DATA_ORDER.__getitem__)
    return {
        "crowns_in_hand": cards_json(state.holding[seat], lang) if holder else None,
        "set_aside_crowns": cards_json(state.set_aside, lang) if holder else None,
        "valuation_pool": cards_json(pool, lang) if holder and state.sly else None,
    }


def _auction(state: State, seat: Seat | None, lang: str) -> dict[str, Any]:
    bids = sealed_bids(state) if state.phase == SEALED else {}
    return {
        "number": state.auctions,
        "card": _card(state.lot, lang),
        "format": state.format,
        "high_bid": state.high,
        "high_bidder": state.high_bidder,
        "bids": [{"seat": s, "amount": a} for s, a in state.bids],
        "passed": list(state.passed),
        "to_act": state.queue[0] if state.queue else None,
        "sealed_submitted": [s for s in state.order if s in bids],
        "your_sealed_bid": bids.get(seat) if seat is not None else None,
    }


def view(state: State, seat: Seat | None, lang: str) -> dict[str, Any]:
    """Return the table as `seat` sees it (None: a spectator); card names in `lang`."""
    me = seat if seat in state.order else None
    over = state.phase == OVER
    last = dict(state.last) if state.last else None
    if last:
        last["card"] = card_json(last["card"], lang)
    return {
        **heading(GAME_ID, NAMES, state, seat, lang),
        "phase": state.phase,
        "order": list(state.order),
        "sly_excuse": state.sly,
        "owed": owed_json(owed(state)),
        "excuse_holder": state.excuse_holder,
        "excuse_revealed": state.excuse_revealed,
        "players": _players(state, me, lang),
        "valuations": _valuations(state, me, lang),
        **_holder_secrets(state, me, lang),
        "group": state.group,
        "groups": GROUPS,
        "row": cards_json(state.row, lang),
        "deck_size": len(state.deck),
        "active": state.active,
        "auction": _auction(state, me, lang),
        "last_auction": last,
        "scores": result(state).detail["scores"] if over else None,
        "winners": list(result(state).winners) if over else None,
    }


redact = EVENTS.redact

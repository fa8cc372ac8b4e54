"""What a seat or a spectator sees: the table and its own hand, never others' hands or the deck."""

from __future__ import annotations

from typing import Any

from games.base import Seat
from games.archive.gobcon_v2.actions import owed
from games.archive.gobcon_v2.catalogue import card_entry
from games.archive.gobcon_v2.contest import roller
from games.archive.gobcon_v2.events import EVENTS
from games.archive.gobcon_v2.scoring import figures, item_value
from games.archive.gobcon_v2.state import GAME_ID, State, prohibited
from games.archive.gobcon_v2.shared.kit import OVER, heading, owed_json

NAMES = {"en": "GobCon", "es": "GobCon"}
FACE_NAMES = {
    "en": {
        "king": "Goblin King",
        "green": "Green Goblin",
        "black": "Black Goblin",
        "darth": "Darth Goblin",
    },
    "es": {
        "king": "Rey Goblin",
        "green": "Goblin Verde",
        "black": "Goblin Negro",
        "darth": "Darth Goblin",
    },
}


def card_json(state: State, inst: str, lang: str) -> dict[str, Any]:
    """Return one physical card as a viewer reads it (its catalogue entry under its
    instance id, `card` the card id), names and text in `lang`."""
    entry = card_entry(state.card(inst), lang)
    del entry["count"]
    return {**entry, "id": inst, "card": entry["id"]}


def _cards(state: State, cards: tuple[str, ...] | list[str], lang: str) -> list[dict[str, Any]]:
    return [card_json(state, c, lang) for c in cards]


def _player(state: State, seat: Seat, lang: str) -> dict[str, Any]:
    friend = state.friends[seat]
    items = [
        {**card_json(state, c, lang), "value": item_value(state, seat, c)}
        for c in state.items[seat]
    ]
    return {
        **figures(state, seat),
        "hand_size": len(state.hands[seat]),
        "friend": card_json(state, friend, lang) if friend else None,
        "items": items,
        "specials": _cards(state, state.specials[seat], lang),
        "prohibited": [c for c in ("3D", "Board", "Card", "RPG") if prohibited(state, seat, c)],
    }


def _window(state: State, seat: Seat | None, lang: str) -> dict[str, Any] | None:
    w = state.window
    if w is None:
        return None
    sealed = dict(w.submitted)
    top = state.top
    return {
        "key": w.key,
        "step": top.kind,
        "seat": top.seat,
        "card": card_json(state, top.card, lang) if top.live else None,
        "responders": list(w.responders),
        "answered": [s for s, _ in w.submitted],
        "you_answered": seat in sealed,
        "your_answer": card_json(state, sealed[seat], lang) if sealed.get(seat) else None,
    }


def _chain(state: State, lang: str) -> list[dict[str, Any]]:
    return [
        {
            "step": link.kind,
            "seat": link.seat,
            "card": card_json(state, link.card, lang) if link.live else None,
            "target": link.target,
            "cancelled": link.cancelled,
        }
        for link in state.chain
    ]


def _contest(state: State, seat: Seat | None, lang: str) -> dict[str, Any] | None:
    c = state.contest
    if c is None:
        return None
    joins = dict(c.joins)
    return {
        "card": card_json(state, c.card, lang),
        "seat": c.seat,
        "eligible": list(c.eligible),
        "declared": [s for s, _ in c.joins],
        "your_join": joins.get(seat) if seat is not None else None,
        "players": list(c.players),
        "rolled": list(c.rolled),
        "to_roll": roller(state) if c.players else None,
        "king_taken": c.king,
    }


def _pending(state: State, lang: str) -> dict[str, Any] | None:
    pending = state.pending
    if pending is None:
        return None
    card = card_json(state, pending.card, lang)
    return {"seat": pending.seat, "card": card, "target": pending.target}


def _options(state: State) -> dict[str, Any]:
    return {
        "deck": state.deck_name,
        "goal": state.goal,
        "time_limit": state.time_limit,
        "end_on_empty_deck": state.end_on_empty_deck,
    }


def view(state: State, seat: Seat | None, lang: str) -> dict[str, Any]:
    """Return the table as `seat` sees it (None: a spectator); card names in `lang`."""
    you = seat if seat in state.order else None
    return {
        **heading(GAME_ID, NAMES, state, seat, lang),
        **_options(state),
        "order": list(state.order),
        "step": state.phase,
        "active": state.active,
        "turn": state.turn,
        "round": (state.turn - 1) // state.players + 1 if state.turn else 0,
        "used": list(state.used),
        "owed": owed_json(owed(state)),
        "faces": FACE_NAMES.get(lang, FACE_NAMES["en"]),
        "draw_size": len(state.draw),
        "discard": _cards(state, state.discard, lang),
        "hand": _cards(state, state.hands[you], lang) if you is not None else None,
        "players": [_player(state, s, lang) for s in state.order],
        "pending": _pending(state, lang),
        "chain": _chain(state, lang),
        "window": _window(state, you, lang),
        "game_in_play": _contest(state, you, lang),
        "reason": state.reason,
        "winners": list(state.winners) if state.phase == OVER else None,
    }


redact = EVENTS.redact

"""The `owes` frame's body: where a game stands for one seat (the version, the status, what
the seat owes with deadlines, who owes what, and its legal actions when it owes something),
sent first on a game's stream and after each append that changes it (service.game_stream).
"""

from __future__ import annotations

from typing import Any

from events.record import ACTIVE, Record
from service.game_queries import shown_actions

OWES = "owes"  # the one event name that says what the caller owes (docs/clients.md)


def owes_data(rec: Record, seat: int | None, owed_now: list[dict[str, Any]]) -> dict[str, Any]:
    """Return what an `owes` frame says of `rec` to `seat`: the version, the status, the
    seat, what it owes (with deadlines), who owes what, and its legal actions when it owes
    something (schemas and choices; no card glossary)."""
    mine = [o for o in owed_now if o["seat"] == seat] if seat is not None else []
    actions = []
    if mine and rec.status == ACTIVE:
        actions = shown_actions(rec.game.legal(rec.state, seat))
    return owes_body(rec.version, rec.status, seat, mine, owed_now, actions)


def owes_body(
    version: int,
    status: str,
    seat: int | None,
    mine: list[dict[str, Any]],
    owed_now: list[dict[str, Any]],
    actions: list[Any],
) -> dict[str, Any]:
    """The `owes` frame's data, from its parts (a seat's record at that version may be gone)."""
    return {
        "type": OWES,
        "version": version,
        "status": status,
        "seat": seat,
        "owes": mine,
        "owed": owed_now,
        "actions": actions,
    }

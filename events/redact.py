"""What one viewer may see of an envelope.

A hidden envelope carries a random `salt` that is redacted with its data, so its
`hash` cannot be searched for a small secret such as a sealed bid.
"""

from __future__ import annotations

from typing import Any

from events.record import FINISHED, Record
from games.base import Event

HIDDEN_CAUSE = "hidden"  # what others see of a player's Idempotency-Key until the end


def may_see(envelope: dict[str, Any], seat: int | None) -> bool:
    """Return True if `seat` (None: a spectator) may see the envelope's data in full."""
    visible = envelope["visible_to"]
    return visible == "all" or (seat is not None and seat in visible)


def redact(envelope: dict[str, Any], record: Record, seat: int | None) -> dict[str, Any]:
    """Return the envelope as `seat` may see it; everything opens once the game is over.

    A player's `command` (the action object it sent) and `cause` (its Idempotency-Key,
    which a client may derive from the body) are shown only to that player, since either
    may give away a secret such as a sealed bid; others see the cause as `hidden`, and no
    salt, so the hash cannot be searched either. The public effects are in the events.
    """
    if record.status == FINISHED:
        return envelope
    shown = envelope
    if isinstance(envelope["actor"], int) and envelope["actor"] != seat:
        shown = {k: v for k, v in envelope.items() if k not in ("command", "salt")}
        shown["cause"] = HIDDEN_CAUSE
    if may_see(envelope, seat):
        return shown
    event = Event(envelope["type"], envelope["data"], tuple(envelope["visible_to"]))
    shown = {k: v for k, v in shown.items() if k != "salt"}
    return {**shown, "data": record.game.redact(event, seat), "redacted": True}

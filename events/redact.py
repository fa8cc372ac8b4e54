"""What one viewer may see of an envelope.

A hidden envelope carries a random `salt` that is redacted with its data, so its
`hash` cannot be searched for a small secret such as a sealed bid.

A private event (the game's `redact` answers None: a Black Market wild-trade offer, its
decline or withdrawal) goes to the game's private log when its rules keep one
(`is_private`; docs/architecture.md, "Private steps"), so others never read it at all. In
an older log (Black Market rules version 2) it reaches the others as an opaque
placeholder of type `hidden`: its `seq`, `at`, `prev` and `hash`, and nothing that tells
what happened or who was involved (`actor`, `cause` and `visible_to` blanked). Its
parties see a step of the private log without its number there, its hash links and its
salt until the end (`PRIVATE_CHAIN`): those would tell how many steps of others came
between two of theirs.
"""

from __future__ import annotations

from typing import Any

from events.record import FINISHED, Record
from games.base import Event

HIDDEN_CAUSE = "hidden"  # what others see of a player's Idempotency-Key until the end
# What even a party does not see of a private step until the end: its number in the whole
# private log and its hash links, which would tell how many steps of others came between
PRIVATE_CHAIN = ("private", "prev", "hash", "salt")


def is_private(game: Any, event: Event) -> bool:
    """Return True for a private step: an event nobody but the seats it names may learn
    anything of (the game's `redact` answers None for others), kept in the game's private
    log (docs/architecture.md, "Private steps")."""
    if not game.private_log:  # e.g. Black Market rules version 2
        return False
    return event.visible_to != "all" and game.redact(event, None) is None


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
    if "private" in envelope:
        shown = {k: v for k, v in envelope.items() if k not in PRIVATE_CHAIN}
    if isinstance(envelope["actor"], int) and envelope["actor"] != seat:
        shown = {k: v for k, v in shown.items() if k not in ("command", "salt")}
        shown["cause"] = HIDDEN_CAUSE
    if may_see(envelope, seat):
        return shown
    event = Event(envelope["type"], envelope["data"], tuple(envelope["visible_to"]))
    data = record.game.redact(event, seat)
    if data is None:
        return placeholder(envelope)
    shown = {k: v for k, v in shown.items() if k != "salt"}
    return {**shown, "data": data, "redacted": True}


HIDDEN = "hidden"


def placeholder(envelope: dict[str, Any]) -> dict[str, Any]:
    """Return the opaque stand-in of a private envelope: where it lies in the log, and
    nothing else."""
    kept = {k: envelope[k] for k in ("seq", "at", "prev", "hash")}
    blank = {"type": HIDDEN, "data": {}, "actor": HIDDEN, "cause": HIDDEN, "visible_to": []}
    return {**kept, **blank, "redacted": True}

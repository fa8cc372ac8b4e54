"""A recorded command decided again, for the audit (events.replay): its kind dispatched to
the one pure function that decided it when it was written (events.decide for play, the
organizer's and the workers' commands; events.seating for the table before play), which
returns its actor and events.
"""

from __future__ import annotations

from typing import Any

from events.decide import (
    Actor,
    abort,
    abort_early,
    act,
    away,
    claim,
    expire,
    extend,
    pause,
    resign,
    resolve,
    resume,
    take_seat,
)
from events.record import Record
from events.seating import cancel, close_reveals, decline, join, lapse, leave, release, reveal
from games.base import Event
from games.rng import Rng


def command(rec: Record, cmd: dict[str, Any], rng: Rng) -> tuple[Actor, list[Event]]:
    """Decide a recorded command again (for the audit): return its actor and events."""
    kind = cmd["type"]
    if kind == "act":
        return act(rec, cmd["player"], cmd["action"], rng)
    if kind == "join":
        name = next((s.name for s in rec.seats if s.player == cmd["player"]), None)
        level = (cmd.get("computer") or {}).get("level")  # a computer player's seat
        given = cmd.get("commitment")  # the seat's commitment (seed rule 2)
        return "system", join(rec, cmd["player"], cmd.get("name", name or ""), rng, level, given)
    if kind == "reveal":
        return reveal(rec, cmd["player"], cmd["secret"], rng)
    if kind == "close_reveals":
        return "system", close_reveals(rec, rng)
    if kind == "leave":
        return "system", leave(rec, cmd["player"])
    if kind == "cancel":
        return "system", cancel(rec, cmd["player"])
    if kind == "lapse":
        return "system", lapse(rec)
    if kind == "expire":
        return "system", expire(rec, cmd["key"], rng)
    if kind == "resolve":
        return "system", resolve(rec, cmd["key"], rng)
    if kind == "resign":
        return resign(rec, cmd["player"], rng)
    if kind == "abort":
        return "system", abort(rec, cmd["by"])
    if kind == "abort_early":
        return "system", abort_early(rec, cmd["player"], cmd.get("rule", 1))
    if kind == "claim":
        return claim(rec, cmd["player"], cmd["at"], cmd.get("rule", 1))
    if kind == "decline":
        return "system", decline(rec, cmd["player"])
    if kind == "release":
        return "system", release(rec)
    if kind == "substitute":
        return "system", take_seat(rec, cmd["seat"], cmd["player"], cmd["name"], cmd["by"])
    if kind == "away":
        return "system", away(rec, cmd["seat"], cmd["from"], cmd["until"], cmd["by"])
    if kind == "pause":
        return "system", pause(rec, cmd["by"])
    if kind == "resume":
        return "system", resume(rec, cmd["by"], cmd["at"])
    if kind == "extend":
        return "system", extend(rec, cmd["key"], cmd["old"], cmd["new"], cmd["reason"])
    raise ValueError(f"unknown command type {kind!r}")

"""What each kind of command decides, as pure functions of the folded record.

The service runs these to write a game's log, and the audit runs them again to check
it: one definition of every command, so the two can never drift apart.
"""

from __future__ import annotations

import json
from typing import Any

from events.record import ACTIVE, FINISHED, WAITING, Record
from games.base import Event, RuleViolation
from games.rng import Rng

Actor = int | str


class NotSeated(Exception):
    """The player holds no seat in the game."""


def seat_of(rec: Record, player_id: str) -> int:
    """Return the player's seat or raise NotSeated."""
    seat = rec.seat_of(player_id)
    if seat is None:
        raise NotSeated(player_id)
    return seat


def join(rec: Record, player_id: str, name: str, rng: Rng) -> list[Event]:
    """Seat a player; the last seat to fill shuffles the seating and sets the game up."""
    if rec.status != WAITING:
        raise RuleViolation("the game has already started", code="game_not_waiting")
    if rec.seat_of(player_id) is not None:
        raise RuleViolation("you already hold a seat in this game", code="already_seated")
    seat = len(rec.seats)
    events = [Event("game.PlayerJoined", {"seat": seat, "player": player_id, "name": name})]
    if seat + 1 == rec.players:
        order = rng.shuffle(range(rec.players))
        events.append(Event("game.Started", {"order": order}))
        events += rec.game.setup(rec.options, tuple(order), rng)
    return events


def _waiting(rec: Record) -> None:
    if rec.status != WAITING:
        raise RuleViolation(f"the game is {rec.status}", code="game_not_waiting")
    if rec.league:
        raise RuleViolation("a league's table is seated by the league", code="league_game")


def leave(rec: Record, player_id: str) -> list[Event]:
    """Free the player's seat in a game that has not started."""
    _waiting(rec)
    seat = seat_of(rec, player_id)
    return [Event("game.PlayerLeft", {"seat": seat, "player": player_id})]


def cancel(rec: Record, player_id: str) -> list[Event]:
    """Cancel a game that has not started (its creator only)."""
    _waiting(rec)
    if rec.creator != player_id:
        raise RuleViolation("only the game's creator may cancel it", code="not_creator")
    return [Event("game.Cancelled", {"by": player_id})]


def lapse(rec: Record) -> list[Event]:
    """Cancel a game that waited too long for its seats (a worker's command)."""
    _waiting(rec)
    return [Event("game.Cancelled", {"by": "system", "reason": "expired"})]


def _playing(rec: Record) -> None:
    if rec.status != ACTIVE:
        code = "game_over" if rec.status == FINISHED else "game_not_started"
        raise RuleViolation(f"the game is {rec.status}", code=code)


def act(rec: Record, player_id: str, action: dict[str, Any], rng: Rng) -> tuple[int, list[Event]]:
    """Return the acting seat and the events of its action (and of resigned seats'
    defaults that follow it)."""
    seat = seat_of(rec, player_id)
    _playing(rec)
    if seat in rec.resigned:
        raise RuleViolation("you resigned from this game", code="resigned")
    events = rec.game.decide(rec.state, seat, action, rng)
    return seat, events + resigned_defaults(rec, events, rng)


def resign(rec: Record, player_id: str, rng: Rng) -> tuple[int, list[Event]]:
    """Resign the player's seat: from now on its decisions are its defaults, at once."""
    seat = seat_of(rec, player_id)
    _playing(rec)
    if seat in rec.resigned:
        raise RuleViolation("you already resigned from this game", code="already_resigned")
    events = [Event("game.SeatResigned", {"seat": seat})]
    gone = rec.resigned | {seat}
    return seat, events + resigned_defaults(rec, events, rng, gone)


def abort(rec: Record, by: str) -> list[Event]:
    """End the game at once for an operator (`game.Aborted`; the log adds game.Ended)."""
    if rec.status == FINISHED:
        raise RuleViolation("the game is finished", code="game_over")
    return [Event("game.Aborted", {"by": by})]


def extend(rec: Record, key: str, old: str, new: str, why: str) -> list[Event]:
    """Give decision `key` a fresh deadline `new` if its deadline is still `old`."""
    seats = sorted({o.seat for o in rec.owed() if o.key == key})
    if not seats or rec.deadline(key) != old:
        return []
    data = {"key": key, "seats": seats, "old_deadline": old, "new_deadline": new, "reason": why}
    return [Event("game.DeadlineExtended", data)]


def resigned_defaults(
    rec: Record, events: list[Event], rng: Rng, resigned: frozenset[int] | None = None
) -> list[Event]:
    """Return the defaults of every decision resigned seats owe after `events`, applied at
    once, one after another, until no resigned seat owes anything (none once every seat
    but one resigned: the game ends instead)."""
    gone = rec.resigned if resigned is None else resigned
    if not gone or len(gone) >= rec.players - 1 or rec.state is None:
        return []
    game, out = rec.game, []
    state = _evolve(game, rec.state, [e for e in events if not e.type.startswith("game.")])
    for _ in range(MAX_DEFAULTS):
        if game.is_over(state):
            break
        due = [o for o in game.owed(state) if o.seat in gone]
        if not due:
            break
        applied = game.decide(state, due[0].seat, due[0].default, rng)
        state = _evolve(game, state, applied)
        out += applied
    return out


MAX_DEFAULTS = 10_000  # a bound on one command's chain of resigned seats' defaults


def expire(rec: Record, key: str, rng: Rng) -> list[Event]:
    """Apply the defaults of decision (or phase) `key`; [] if nobody owes it any more.

    A turn-based decision gets its default action; in a simultaneous phase every missing
    seat gets its default submission, and the phase is then resolved.
    """
    owed = [o for o in rec.owed() if o.key == key]
    game, state, events = rec.game, rec.state, []
    for o in owed:
        timed_out = Event(
            "game.DecisionTimedOut",
            {"seat": o.seat, "kind": o.kind, "key": key, "default": o.default},
        )
        applied = game.decide(state, o.seat, o.default, rng)
        state = _evolve(game, state, applied)
        events += [timed_out, *applied]
    if owed and game.ready(state) == key:
        events += game.resolve(state, rng)
    return events + resigned_defaults(rec, events, rng) if events else []


def resolve(rec: Record, key: str, rng: Rng) -> list[Event]:
    """Resolve simultaneous phase `key` if it is ready; [] otherwise."""
    if rec.status != ACTIVE or rec.game.ready(rec.state) != key:
        return []
    events = rec.game.resolve(rec.state, rng)
    return events + resigned_defaults(rec, events, rng)


def command(rec: Record, cmd: dict[str, Any], rng: Rng) -> tuple[Actor, list[Event]]:
    """Decide a recorded command again (for the audit): return its actor and events."""
    kind = cmd["type"]
    if kind == "act":
        return act(rec, cmd["player"], cmd["action"], rng)
    if kind == "join":
        name = next((s.name for s in rec.seats if s.player == cmd["player"]), None)
        return "system", join(rec, cmd["player"], cmd.get("name", name or ""), rng)
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
    if kind == "extend":
        return "system", extend(rec, cmd["key"], cmd["old"], cmd["new"], cmd["reason"])
    raise ValueError(f"unknown command type {kind!r}")


def _evolve(game: Any, state: Any, events: list[Event]) -> Any:
    for event in events:
        data = json.loads(json.dumps(event.data))
        state = game.evolve(state, Event(event.type, data, event.visible_to))
    return state

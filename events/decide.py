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


def act(rec: Record, player_id: str, action: dict[str, Any], rng: Rng) -> tuple[int, list[Event]]:
    """Return the acting seat and the events of its action."""
    seat = seat_of(rec, player_id)
    if rec.status != ACTIVE:
        code = "game_over" if rec.status == FINISHED else "game_not_started"
        raise RuleViolation(f"the game is {rec.status}", code=code)
    return seat, rec.game.decide(rec.state, seat, action, rng)


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
    return events


def resolve(rec: Record, key: str, rng: Rng) -> list[Event]:
    """Resolve simultaneous phase `key` if it is ready; [] otherwise."""
    if rec.status != ACTIVE or rec.game.ready(rec.state) != key:
        return []
    return rec.game.resolve(rec.state, rng)


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
    if kind == "expire":
        return "system", expire(rec, cmd["key"], rng)
    if kind == "resolve":
        return "system", resolve(rec, cmd["key"], rng)
    raise ValueError(f"unknown command type {kind!r}")


def _evolve(game: Any, state: Any, events: list[Event]) -> Any:
    for event in events:
        data = json.loads(json.dumps(event.data))
        state = game.evolve(state, Event(event.type, data, event.visible_to))
    return state

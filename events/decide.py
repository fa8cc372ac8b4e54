"""What each kind of command decides, as pure functions of the folded record.

The service runs these to write a game's log, and the audit runs them again to check
it: one definition of every command, so the two can never drift apart. The audit reaches
them through events.redecide, which dispatches each recorded command.
"""

from __future__ import annotations

import json
from typing import Any

from events import catalog
from events.codec import iso, parse_time
from events.record import ACTIVE, FINISHED, Record
from events.seating import seat_of
from games.base import Event, RuleViolation
from games.rng import Rng

Actor = int | str


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
    if rec.paused_at:
        raise RuleViolation("the table is paused by its league's organizer", code="game_paused")
    events = rec.game.decide(rec.state, seat, action, rng)
    return seat, events + resigned_defaults(rec, events, rng)


def take_seat(rec: Record, seat: int, player_id: str, name: str, by: str) -> list[Event]:
    """A substitute takes over `seat` of a running game (for a league's organizer): from
    now on the seat's moves are the substitute's (`game.SeatTaken`; the moves before stay
    the first player's, as their commands name them). A resigned seat is played again.
    Allowed unless the rules version says `seat_changes = False` (none does: the rules
    know seats, never players)."""
    _playing(rec)
    if not getattr(rec.game, "seat_changes", True):
        why = "these rules do not allow a seat to change hands"
        raise RuleViolation(why, code="rule_violation")
    holder = next((s for s in rec.seats if s.seat == seat), None)
    if holder is None:
        raise RuleViolation(f"the game has no seat {seat}", code="rule_violation")
    if rec.seat_of(player_id) is not None:
        raise RuleViolation("the substitute holds a seat in this game", code="already_seated")
    data = {"seat": seat, "player": player_id, "name": name, "replaces": holder.player, "by": by}
    return [Event(catalog.SEAT_TAKEN, data)]


def away(rec: Record, seat: int, start: str, end: str, by: str) -> list[Event]:
    """The seat's player is away from `start` to `end` (a vacation declared in their
    league): a deadline of theirs falling in it moves on by its length."""
    _playing(rec)
    if not any(s.seat == seat for s in rec.seats):
        raise RuleViolation(f"the game has no seat {seat}", code="rule_violation")
    return [Event(catalog.SEAT_AWAY, {"seat": seat, "from": start, "until": end, "by": by})]


def pause(rec: Record, by: str) -> list[Event]:
    """Stop the game's clock (for a league's organizer): no deadline runs and no move is
    taken until it resumes."""
    _playing(rec)
    if rec.paused_at:
        raise RuleViolation("the game is paused already", code="game_paused")
    return [Event(catalog.PAUSED, {"by": by})]


def resume(rec: Record, by: str, at: str) -> list[Event]:
    """Start the clock again at `at`: every decision owed gets back the time it had left
    when the game was paused (`game.DeadlineExtended`, reason `paused`)."""
    _playing(rec)
    if not rec.paused_at:
        raise RuleViolation("the game is not paused", code="rule_violation")
    events = [Event(catalog.RESUMED, {"by": by, "paused_at": rec.paused_at})]
    stopped = parse_time(at) - parse_time(rec.paused_at)
    since = dict(rec.owed_since)
    for key in sorted({o.key for o in rec.owed()}):
        old = rec.deadline(key, running=True)
        if old is None:
            continue
        lost = min(stopped, parse_time(at) - parse_time(since.get(key, rec.paused_at)))
        new = iso((parse_time(old) + lost).timestamp())
        seats = sorted({o.seat for o in rec.owed() if o.key == key})
        data = {"key": key, "seats": seats, "old_deadline": old, "new_deadline": new}
        events.append(Event(catalog.DEADLINE_EXTENDED, {**data, "reason": "paused"}))
    return events


def resign(rec: Record, player_id: str, rng: Rng) -> tuple[int, list[Event]]:
    """Resign the player's seat: from now on its decisions are its defaults, at once."""
    seat = seat_of(rec, player_id)
    _playing(rec)
    if seat in rec.resigned:
        raise RuleViolation("you already resigned from this game", code="already_resigned")
    events = [Event(catalog.SEAT_RESIGNED, {"seat": seat})]
    gone = rec.resigned | {seat}
    return seat, events + resigned_defaults(rec, events, rng, gone)


# Commands decided under the rules of #49 carry `"rule": 2` (abort_early, claim below): an
# abort only before any other seat has moved, a claim's idle time counted from what the
# claimer may see. Commands logged before keep being decided as they were.
RULE = 2


def abort_early(rec: Record, player_id: str, rule: int = RULE) -> list[Event]:
    """End an active game without a result that counts, for any of its seated players,
    before any other seat has made a decision (its own action, a deadline's default or a
    resignation): `game.Aborted`; the log adds game.Ended. (Rule 1, before #49: while some
    seat had made none, so a seat of a game of three could wipe out two opponents' moves.)"""
    seat = seat_of(rec, player_id)  # only a seated player
    _playing(rec)
    if rule >= 2 and rec.moved - {seat}:
        raise RuleViolation(
            "an opponent has made a decision: resign instead", code="abort_too_late"
        )
    if all(s in rec.moved for s in range(rec.players)):
        raise RuleViolation("every seat has made a decision: resign instead", code="abort_too_late")
    return [Event(catalog.ABORTED, {"by": player_id})]


def claim(rec: Record, player_id: str, at: str, rule: int = RULE) -> tuple[int, list[Event]]:
    """End an idle game for a seat that owes nothing while no seat has acted for the
    game's `claim_after_s` (untimed games only): it ends `abandoned`, scored as it stands.
    The idle time runs from the last step the claimer may see: a public event or a private
    step it is party to, never others' private steps (rule 1, before #49: any step)."""
    seat = seat_of(rec, player_id)
    _playing(rec)
    if rule >= 2 and rec.league:
        raise RuleViolation(
            "a league's game ends by the league's rules (its deadlines)", code="claim_not_allowed"
        )
    if rec.decision_timeout_s:
        raise RuleViolation("a timed game ends through its deadlines", code="claim_not_allowed")
    if seat in rec.resigned or any(o.seat == seat for o in rec.owed()):
        raise RuleViolation("only a seat that owes nothing may claim", code="claim_not_allowed")
    if not any(o.seat not in rec.resigned for o in rec.owed()):
        raise RuleViolation("no seat is keeping the game waiting", code="claim_not_allowed")
    after = rec.claim_after_s or CLAIM_AFTER_S
    since = rec.seen_at(seat) if rule >= 2 else rec.last_at
    idle = (parse_time(at) - parse_time(since)).total_seconds()
    if idle < after:
        raise RuleViolation(
            f"the game has been idle {int(idle)} s of the {after} s before a claim",
            code="claim_too_early",
        )
    return seat, [Event(catalog.CLAIMED, {"seat": seat, "idle_since": since})]


CLAIM_AFTER_S = 3 * 24 * 3600  # an untimed game's idle time before a claim, by default


def claim_after(rec: Record) -> int | None:
    """Return how long an untimed game may sit idle before a seat may claim it (None for a
    timed game: its deadlines end it)."""
    return None if rec.decision_timeout_s else rec.claim_after_s or CLAIM_AFTER_S


def abort(rec: Record, by: str) -> list[Event]:
    """End the game at once for an operator (`game.Aborted`; the log adds game.Ended)."""
    if rec.status == FINISHED:
        raise RuleViolation("the game is finished", code="game_over")
    return [Event(catalog.ABORTED, {"by": by})]


def extend(rec: Record, key: str, old: str, new: str, why: str) -> list[Event]:
    """Give decision `key` a fresh deadline `new` if its deadline is still `old`."""
    seats = sorted({o.seat for o in rec.owed() if o.key == key})
    if not seats or rec.deadline(key) != old:
        return []
    data = {"key": key, "seats": seats, "old_deadline": old, "new_deadline": new, "reason": why}
    return [Event(catalog.DEADLINE_EXTENDED, data)]


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
    state = _evolve(game, rec.state, [e for e in events if not catalog.is_table_event(e.type)])
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
            catalog.DECISION_TIMED_OUT,
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


def _evolve(game: Any, state: Any, events: list[Event]) -> Any:
    for event in events:
        data = json.loads(json.dumps(event.data))
        state = game.evolve(state, Event(event.type, data, event.visible_to))
    return state

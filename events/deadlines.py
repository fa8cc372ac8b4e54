"""The deadline rule, in one place: when a decision falls due, how late an action may still
come, when an outage covers a deadline and what fresh deadline it gets, and what an expiry
does. Pure: no I/O and no clock (the time is an argument).

The server keeps the rule (`service.game_commands.act` refuses a late action,
`service.deadline_commands` carries out an expiry, `service.game_log` writes the deadline
index, `workers.scheduler` stores it) and the audit judges a log by it (`events.times`).

The audit's tolerances are versioned with the games they judge: a game is played and
judged under the time model its `game.Created` names (`time_model`; a log without one was
played under model 1). A model is never edited: a new one is added and made `CURRENT`, so
every log already written keeps its verdict. docs/audit.md and docs/workers.md explain the
model and the outage rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Protocol

from events.codec import iso, parse_time
from games.base import Owed


class Record(Protocol):
    """What the deadline rule reads of a game's record (events.record.Record, which asks
    this module for its deadlines)."""

    decision_timeout_s: int | None
    time_model: int
    owed_since: tuple[tuple[str, str], ...]
    extended: tuple[tuple[str, str], ...]
    paused_at: str | None
    away: tuple[tuple[int, str, str], ...]

    def owed(self) -> list[Owed]: ...

    def deadline(self, key: str, running: bool = False) -> str | None: ...


@dataclass(frozen=True)
class Tolerance:
    """How late a move may be under one time model: `grace`, how long past its deadline
    the server still takes an action (the expiry job applies the default a little after
    the deadline: docs/workers.md, normally well under 2 s, a killed worker's claim lapses
    after 10 s); `stamp_slack`, how much more the audit allows, since the server checks
    before the rules decide and stamps the time after."""

    grace: timedelta
    stamp_slack: timedelta


# Never edit a model that a game may have been logged under: add the next one.
TIME_MODELS = {1: Tolerance(grace=timedelta(seconds=30), stamp_slack=timedelta(seconds=10))}
CURRENT = 1  # the model new games are created under (game.Created's `time_model`)


def tolerance(rec: Record) -> Tolerance | None:
    """Return the tolerances of the time model the game was created under, or None if this
    code does not know that model (a log from a newer server, or a forged one)."""
    return TIME_MODELS.get(rec.time_model)


def due(rec: Record, key: str, running: bool = False) -> str | None:
    """Return the ISO deadline of decision `key`, or None without a time control or while
    the game is paused (`running`: the deadline it had when its clock stopped). A
    `game.DeadlineExtended` replaces the computed deadline; a deadline that falls in a
    vacation of a seat that owes it moves on by the vacation's length."""
    if rec.paused_at and not running:
        return None
    for k, when in rec.extended:
        if k == key:
            return when
    since = dict(rec.owed_since).get(key)
    if since is None or not rec.decision_timeout_s:
        return None
    when = parse_time(since) + timedelta(seconds=rec.decision_timeout_s)
    if rec.away:
        seats = {o.seat for o in rec.owed() if o.key == key}
        for seat, start, end in sorted(rec.away, key=lambda a: a[1]):
            if seat in seats and parse_time(start) <= when <= parse_time(end):
                when += parse_time(end) - parse_time(start)
    return when.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def overdue(
    rec: Record, seat: int, now: datetime, slack: timedelta = timedelta(0)
) -> tuple[str, str] | None:
    """Return (decision key, deadline) of a decision `seat` owes whose deadline plus the
    grace of the game's time model (and `slack`) has passed at `now`, or None: such a seat
    may no longer act. A game under a time model this code does not know is never called
    overdue here (the audit names the unknown model)."""
    model = tolerance(rec)
    if model is None:
        return None
    for owed in rec.owed():
        if owed.seat != seat:
            continue
        deadline = due(rec, owed.key)
        if deadline and now > parse_time(deadline) + model.grace + slack:
            return owed.key, deadline
    return None


def changes(old: Record, new: Record) -> tuple[dict[str, str], set[str]]:
    """Return what an append from `old` to `new` changes in the deadline index: the
    deadline of each decision newly owed or given another deadline (extended, a seat
    away), and the decisions no longer owed that had one (answered, defaulted, the game
    over), so that no expiry is ever queued for a decision already made."""
    before, after = {o.key for o in old.owed()}, {o.key for o in new.owed()}
    moved = after - before
    if new.extended != old.extended or new.away != old.away:
        moved |= {k for k in after & before if new.deadline(k) != old.deadline(k)}
    fresh = {k: d for k in moved if (d := new.deadline(k))}
    return fresh, {k for k in before - after if old.deadline(k)}


# The outage rule (docs/workers.md, "Outages"). Every API process beats every API_BEAT_S;
# a gap in the API's heartbeat longer than API_GAP_S is an outage (three beats missed by
# every API process: none of them could take an action), however much shorter than
# OUTAGE_AFTER_S, so that no deadline that fell in a freeze of the API is defaulted.
API_BEAT_S = 0.25
API_GAP_S = 3 * API_BEAT_S
POSTPONE_S = 1.0  # how much later an expiry looks again while the API is down


def api_gap(threshold: float) -> float:
    """Return the gap in the API's heartbeat that is an outage: API_GAP_S, or `threshold`
    (OUTAGE_AFTER_S) if shorter."""
    return min(API_GAP_S, threshold)


def outage_grace(rec: Record, config: dict) -> float:
    """Return the grace window after an outage of a game: OUTAGE_GRACE_S, or its decision
    timeout if shorter."""
    window = float(config["OUTAGE_GRACE_S"])
    return min(window, float(rec.decision_timeout_s)) if rec.decision_timeout_s else window


def covered(spans: list[tuple[float, float]], due: float, window: float, now: float) -> str | None:
    """Return the fresh deadline of a decision due at `due` (a Unix time) if one of the
    outages `spans` covers it (`due` fell inside it or within `window` after it): `window`
    after the later of `now` and the outage's end; else None."""
    for start, end in spans:
        if start < due < end + window:
            return iso(max(now, end) + window)
    return None


def wait_for_api(last: float | None, due: float, now: float, threshold: float) -> float:
    """Return how long an expiry due at `due` waits before its default may be applied, 0
    if at once: the API must have beaten since the deadline (players could act until it)
    and within `threshold` of now (it is up). `last` None (no API ever beat) is up."""
    if last is None or (last >= due and now - last <= threshold):
        return 0.0
    return POSTPONE_S if now - last > threshold else API_BEAT_S


class Verdict(StrEnum):
    """What an expiry does (service.ports.Status has the same values)."""

    APPLIED = "applied"  # apply the defaults
    EXTENDED = "extended"  # an outage covered the deadline: a fresh one
    POSTPONED = "postponed"  # the API has not been up since the deadline: look again later
    EARLY = "early"  # not due yet (clock skew): look again at its time
    NOOP = "noop"  # nothing is owed


@dataclass(frozen=True)
class Facts:
    """What the heartbeats said when the expiry ran: the API's last beat (None: no API
    ever beat), the outages on record that may cover the deadline, the game's grace
    window (s), and OUTAGE_AFTER_S."""

    api: float | None
    outages: tuple[tuple[float, float], ...]
    grace_s: float
    down_after_s: float


@dataclass(frozen=True)
class Plan:
    """What to do: `status`, the deadline to look again at (EARLY, POSTPONED) or the fresh
    one (EXTENDED), and for EXTENDED the deadline it replaces (`old`)."""

    status: Verdict
    deadline: str | None = None
    old: str | None = None


def owed(rec: Record, key: str) -> str | None:
    """Return the deadline of decision `key` if it is owed now and has one, else None."""
    deadline = rec.deadline(key)
    return deadline if deadline and any(o.key == key for o in rec.owed()) else None


def plan(rec: Record, key: str, now: float, facts: Facts) -> Plan:
    """Return what an expiry of decision `key` does at `now` (a Unix time), in the order of
    the outage rule: a deadline that fell in an outage (or its grace window) gets a fresh
    one; a deadline not reached yet is looked at again then; a default waits until the API
    has beaten since the deadline and is up; only then is it applied."""
    deadline = owed(rec, key)
    if deadline is None:
        return Plan(Verdict.NOOP)
    when = parse_time(deadline).timestamp()
    if fresh := covered(list(facts.outages), when, facts.grace_s, now):
        return Plan(Verdict.EXTENDED, fresh, deadline)
    if when > now:
        return Plan(Verdict.EARLY, deadline)
    if wait := wait_for_api(facts.api, when, now, facts.down_after_s):
        return Plan(Verdict.POSTPONED, iso(now + wait))
    return Plan(Verdict.APPLIED)

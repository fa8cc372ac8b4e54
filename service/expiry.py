"""What an expiry does with a decision, as a pure function of the game's record, the time
and what the heartbeats said (`Facts`): no I/O, no clock. `service.deadline_commands.expire`
loads the game once, reads the facts, asks `plan`, and carries the answer out.

The order of the checks is the outage rule of docs/workers.md: a deadline that fell in
an outage (or its grace window) gets a fresh one; a deadline not reached yet is looked at
again then; a default waits until the API has beaten since the deadline and is up
(`outages.wait_for_api`); only then is it applied.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from events import codec
from service import outages
from service.ports import Status

if TYPE_CHECKING:
    from events.record import Record


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
    """What to do: `status` (APPLIED: apply the defaults; EXTENDED: give the decision the
    fresh deadline `deadline`; EARLY or POSTPONED: look again at `deadline`; NOOP: nothing
    is owed) and, for EXTENDED, the deadline it replaces (`old`)."""

    status: Status
    deadline: str | None = None
    old: str | None = None


def owed(rec: Record, key: str) -> str | None:
    """Return the deadline of decision `key` if it is owed now and has one, else None."""
    deadline = rec.deadline(key)
    return deadline if deadline and any(o.key == key for o in rec.owed()) else None


def plan(rec: Record, key: str, now: float, facts: Facts) -> Plan:
    """Return what an expiry of decision `key` does at `now` (a Unix time)."""
    deadline = owed(rec, key)
    if deadline is None:
        return Plan(Status.NOOP)
    due = codec.parse_time(deadline).timestamp()
    if fresh := outages.covered(list(facts.outages), due, facts.grace_s, now):
        return Plan(Status.EXTENDED, fresh, deadline)
    if due > now:
        return Plan(Status.EARLY, deadline)
    if wait := outages.wait_for_api(facts.api, due, now, facts.down_after_s):
        return Plan(Status.POSTPONED, codec.iso(now + wait))
    return Plan(Status.APPLIED)

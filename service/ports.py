"""What the service needs from the outside, as protocols; `workers.scheduler` implements
the Scheduler on Redis and RQ, and the bootstrap object carries the instance in use."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Protocol


def job_id(job: str, subject: str, key: str) -> str:
    """Return the id of the work that does `job` for `key` of a game or league: the
    queue's job id, and the `cause` of what that work appends."""
    return f"{job}-{subject}-{key}"


RESERVATIONS = "reservations"  # the key of a game's `release` work: the seats it holds
SEAT_SEEDS = "seat-seeds"  # the key of a game's `reveals` work: its seats' reveals close


def due_member(job: str, subject: str, key: str) -> str:
    """Return the member of the deadline index (`mf:deadlines`) that has `job` run for
    `key` of `subject` when its score falls due (workers.scheduler sweeps it)."""
    return f"{job}|{subject}|{key}"


class Status(StrEnum):
    """What a piece of scheduled work did (the job logs it): a decision's expiry, a phase's
    resolution, a league's round or a finished league game's result."""

    APPLIED = "applied"  # the defaults of an overdue decision
    EXTENDED = "extended"  # an outage covered the deadline: a fresh one
    POSTPONED = "postponed"  # the API has not been up since the deadline: later
    EARLY = "early"  # not due yet (clock skew): at its time
    NOOP = "noop"  # nothing to do (answered, done already, the game moved on)
    RESOLVED = "resolved"  # a simultaneous phase
    STARTED = "started"  # a league round
    RESUMED = "resumed"  # a league round started before, its tables opened again
    PAUSED = "paused"  # a league round held by a pause (league.Resumed schedules it)
    MISSING = "missing"  # no such league
    RECORDED = "recorded"  # a finished league game's result
    NOT_FINISHED = "not_finished"  # a league game that has not ended
    CANCELLED = "cancelled"  # a game that waited too long for its seats (service.waiting)
    SENT = "sent"  # a notification delivered, or planned on its channels (service.notify)
    DROPPED = "dropped"  # a notification not sent: seen live, answered, unsubscribed, refused

    @property
    def still_due(self) -> bool:
        """True if the work rescheduled itself: it stays in the deadline index."""
        return self in (Status.EARLY, Status.EXTENDED, Status.POSTPONED)


class Scheduler(Protocol):
    """Work that must happen later, or now but outside the request."""

    def expiry(self, game_id: str, key: str, deadline: str, pipe: Any = None) -> None:
        """Have decision `key` of the game expire at `deadline` (ISO time); with `pipe` (a
        Redis pipeline the caller executes) the write joins it."""

    def resolution(self, game_id: str, key: str) -> None:
        """Have simultaneous phase `key` of the game resolved now."""

    def computer_turn(self, game_id: str, key: str, pipe: Any = None, now: bool = False) -> None:
        """Have the computer seat of `key` (`<seat>-<decision key>`) make its decision now
        (with `pipe`, as below; `now`: enqueued at once, not at the next sweep)."""

    def lapse(self, game_id: str, key: str, when: float) -> None:
        """Have the game cancelled at `when` (a Unix time) if it is still waiting."""

    def release(self, game_id: str, until: str) -> None:
        """Have the seats the game still holds freed at `until` (ISO time): its
        reservations lapse (service.tables)."""

    def reveals_close(self, game_id: str, when: str, pipe: Any = None) -> None:
        """Have the seats' reveals of a full table closed at `when` (ISO time) and the
        game started without the secrets still missing (docs/fairness.md); with `pipe`,
        as below."""

    def pending(self, job: str, subject: str, key: str) -> bool:
        """Return True while the work is still to be done (in the index)."""

    def waited_on(self) -> set[str]:
        """Return the games the index holds a deadline or a queued phase of (`expire`,
        `resolve` members)."""

    def league_round(self, league_id: str, number: int, when: float) -> None:
        """Have round `number` of the league started at `when` (a Unix time)."""

    def league_result(self, league_id: str, game_id: str) -> None:
        """Have a finished league game recorded now."""

    def later(self, job: str, subject: str, key: str, pipe: Any = None) -> None:
        """Have the work done by a worker a while from now (`CLAIM_S`) unless the caller,
        who does it at once, calls `done` first: a safety net written with an append (in
        `pipe`, as above) for a caller that may die before it has done the work."""

    def health(self, now: float) -> dict[str, Any]:
        """Return what readiness needs of the work machinery: `workers` (how many are
        registered), `queues` ({name: {"depth", "oldest_s"}}: jobs waiting and how long
        the oldest has waited) and `overdue_s` (how long the most overdue deadline in the
        index has been due, 0 if none)."""

    def done(self, job: str, subject: str, key: str, pipe: Any = None) -> None:
        """Forget work that was handled or is no longer needed (with `pipe`, as above)."""

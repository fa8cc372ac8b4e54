"""What the workers do to a game when its time comes: a decision's deadline (`expire`:
its defaults, or a fresh deadline after an outage, service.outage_extension) and a
simultaneous phase's resolution (`resolve`), each a command on `service.loop`, once per job.

What an expiry does is `events.deadlines.plan`, the deadline rule's pure function of the
record, the time and the heartbeats; this module loads the game, reads the heartbeats
(service.outages) and carries it out.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from events import catalog, codec, deadlines, decide
from events.deadlines import Verdict
from events.repository import Loaded
from games.rng import Rng
from service import league_absence, loop, metrics, outage_extension
from service.errors import DomainError
from service.game_log import GameLog
from service.loop import Outcome
from service.ports import Status, job_id

if TYPE_CHECKING:
    from events.record import Record
    from service.bootstrap import Bootstrap


def expire(boot: Bootstrap, game_id: str, key: str) -> Status:
    """Apply the defaults of decision (or phase) `key` if it is still owed and overdue,
    unless an outage covers its deadline (then it gets a fresh one: EXTENDED) or the API
    has not been up since it (then it is looked at again later: POSTPONED). The game is
    loaded once; what to do is `events.deadlines.plan`, a pure function of the record,
    the time and the heartbeats."""
    job = job_id("expire", game_id, key)
    # the API's last beat first: an outage that beat ended is then on record below
    api = boot.operations.last_beat(api=True)
    loaded = boot.store.load(game_id, f"system:{job}")
    rec, now = loaded.record, time.time()
    facts = outage_extension.expiry_facts(boot, rec, key, api)
    plan = deadlines.plan(rec, key, now, facts)
    if plan.status is Verdict.APPLIED:

        def decide_expiry(r: Record, rng: Rng):
            due = deadlines.plan(r, key, now, facts).status is Verdict.APPLIED
            return "system", decide.expire(r, key, rng) if due else []

        done = _system(boot, game_id, key, job, decide_expiry, "expire", loaded)
        if done.created:
            if (deadline := rec.deadline(key)) is not None:
                late = time.time() - codec.parse_time(deadline).timestamp()
                metrics.deadline_applied(rec.ruleset, late)
            _absence(boot, done)
            return Status.APPLIED
        plan = deadlines.plan(done.record, key, now, facts)  # the log moved on meanwhile
        if plan.status is Verdict.APPLIED:  # appended by an earlier run of this job
            return Status.NOOP
    if plan.status is Verdict.EXTENDED:
        fresh = Loaded(rec, loaded.seed, None)
        outage_extension.extend(boot, game_id, key, plan.old, plan.deadline, fresh)
    elif plan.status in (Verdict.EARLY, Verdict.POSTPONED):
        boot.scheduler.expiry(game_id, key, plan.deadline)
    return Status(plan.status)


def _absence(boot: Bootstrap, done: Outcome) -> None:
    """After defaults applied to a league game, withdraw those players the league's
    absence rule now calls absent (service.league_absence): checked when it happens."""
    rec = done.record
    if not rec.league:
        return
    seats = {s.seat: s.player for s in rec.seats}
    timed_out = {
        e["data"].get("seat") for e in done.envelopes if e["type"] == catalog.DECISION_TIMED_OUT
    }
    players = {seats[s] for s in timed_out if s in seats and s not in rec.resigned}
    if players:
        try:
            league_absence.check(boot, rec.league["id"], players)
        except DomainError:  # the league is gone or busy: the next round start checks again
            return


def resolve(boot: Bootstrap, game_id: str, key: str) -> Status:
    """Resolve simultaneous phase `key` once all its submissions are in."""
    job = job_id("resolve", game_id, key)

    def decide_resolution(rec: Record, rng: Rng):
        return "system", decide.resolve(rec, key, rng)

    done = _system(boot, game_id, key, job, decide_resolution, "resolve")
    return Status.RESOLVED if done.created else Status.NOOP


def _system(
    boot: Bootstrap,
    game_id: str,
    key: str,
    job: str,
    decide_,
    kind: str,
    loaded: Loaded | None = None,
) -> Outcome:
    """Run a worker's command on decision or phase `key`, once per job (`loaded`: the
    game as the caller loaded it with this job's idempotency key)."""
    log = GameLog(boot, game_id, body=key, loaded=loaded)
    command = {"type": kind, "key": key}
    return loop.run(boot, log, decide_, cause=job, idem=f"system:{job}", command=command)

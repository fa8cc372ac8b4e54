"""RQ job functions. Each is idempotent: running one twice changes nothing the second time."""

from __future__ import annotations

import logging
import time

from rq import get_current_job

from service import (
    computer_turns,
    deadline_commands,
    league_commands,
    league_followups,
    league_rounds,
    metrics,
    outages,
    seed_reveals,
    tables,
    waiting,
)
from service.bootstrap import Bootstrap
from service.game_log import REVEAL_KEY
from service.ports import Status

logger = logging.getLogger(__name__)
_deps: list[Bootstrap] = []  # this process's, installed by workers.runner.run


def use(deps: Bootstrap) -> None:
    """Run this process's jobs on `deps` (built by the composition root, cli/compose.py)."""
    _deps[:] = [deps]


def boot() -> Bootstrap:
    """Return the dependencies this process's jobs run on."""
    if not _deps:
        raise RuntimeError("no dependencies installed: jobs run in `marketfold worker`")
    return _deps[0]


def expire(game_id: str, key: str) -> str:
    """Apply the default action of an overdue decision, once; a no-op if it was made, a
    fresh deadline if an outage covers it, postponed while the API is down
    (service.deadline_commands.expire). The job beats first, so an outage it ends is on
    record even if it runs before its worker's sweeper has beaten (a job queued before
    the outage). A decision answered after its job was queued left the index with its
    answer: the job then ends at once, reading nothing else."""
    if key == tables.LAPSE_KEY:  # a member stored before reservations had `release`
        return _done("expire", game_id, key, tables.lapse(boot(), game_id))
    if key == REVEAL_KEY:  # a member stored before the reveals had `reveals`: theirs now
        status = seed_reveals.close_reveals(boot(), game_id)  # early: a `reveals` member
        boot().scheduler.done("expire", game_id, key)
        return _done("expire", game_id, key, status)
    if not boot().scheduler.pending("expire", game_id, key):
        return _done("expire", game_id, key, Status.NOOP)
    threshold = float(boot().config["OUTAGE_AFTER_S"])
    outages.beat(boot().operations, time.time(), threshold)
    return _done("expire", game_id, key, deadline_commands.expire(boot(), game_id, key))


def release(game_id: str, key: str) -> str:
    """Free the seats a waiting game still holds once its reservations run out, once
    (service.tables.lapse); a run before their time reschedules itself."""
    return _done("release", game_id, key, tables.lapse(boot(), game_id))


def close_reveals(game_id: str, key: str) -> str:
    """Close a full table's seats' reveals at the end of their window and start the game
    without the secrets still missing, once (docs/fairness.md); a run before the window's
    end reschedules itself."""
    return _done("reveals", game_id, key, seed_reveals.close_reveals(boot(), game_id))


def resolve(game_id: str, key: str) -> str:
    """Resolve a simultaneous phase whose submissions are all in, once."""
    return _done("resolve", game_id, key, deadline_commands.resolve(boot(), game_id, key))


def computer_turn(game_id: str, key: str) -> str:
    """Make the decision a computer seat owes (`key`: `<seat>-<decision key>`), once; a
    no-op once it is made (service.computer_turns)."""
    return _done("computer", game_id, key, computer_turns.play(boot(), game_id, key))


def lapse(game_id: str, key: str) -> str:
    """Cancel a game still waiting for its seats at its expiry, once (service.waiting)."""
    done = waiting.lapse(boot(), game_id)
    return _done("lapse", game_id, key, Status.CANCELLED if done.created else Status.NOOP)


def start_round(league_id: str, number: str) -> str:
    """Start round `number` of a league: tables, games, seats; once, however often run."""
    status = league_rounds.start_round(boot(), league_id, int(number))
    return _done("round", league_id, number, status)


def record_result(league_id: str, game_id: str) -> str:
    """Record a finished league game's places, points and ratings, once."""
    status = league_commands.record_result(boot(), league_id, game_id)
    return _done("league_result", league_id, game_id, status)


def league_followup(league_id: str, seq: str) -> str:
    """Do what league event `seq` changes in the league's games, left undone by a request
    that died after appending it (service.league_followups); safe to run again."""
    status = league_followups.follow(boot(), league_id, int(seq))
    return _done("league_followup", league_id, seq, status)


def _done(job: str, subject: str, key: str, status: Status) -> str:
    """Take handled work off the deadline index (work that rescheduled itself stays due)
    and log it."""
    if not status.still_due:
        boot().scheduler.done(job, subject, key)
    logger.info("%s %s of %s: %s", job, key, subject, status)
    ran = get_current_job()
    if ran is None:  # called outside RQ (a test)
        metrics.job_done(job, str(status), None, None, None)
    else:
        when = [t.timestamp() if t else None for t in (ran.enqueued_at, ran.started_at)]
        metrics.job_done(job, str(status), ran.origin, *when)
    return str(status)

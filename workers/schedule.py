"""Work that must happen later, kept in Redis and swept by every worker into RQ jobs.

The sorted set `mf:deadlines` holds members `<job>|<game>|<key>` scored by when they are
due: `expire` (a decision's deadline) and `resolve` (a simultaneous phase whose
submissions are all in); for leagues `round|<league>|<n>` (a round's start time) and
`league_result|<league>|<game>` (a finished league game to record). Sweepers claim due
members atomically, pushing their score `CLAIM_S` into the future, and enqueue the job
`<job>-<game>-<key>`; the job removes the member once it has run. A worker that dies
holding a claim only delays that work until the claim lapses and another sweeper takes it.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from rq import Retry

from events import codec, keys

if TYPE_CHECKING:
    from service.deps import Deps

logger = logging.getLogger(__name__)
JOBS = {
    "expire": "workers.jobs.expire",
    "resolve": "workers.jobs.resolve",
    "round": "workers.jobs.start_round",  # round|<league>|<n>: open a league round's games
    "league_result": "workers.jobs.record_result",  # league_result|<league>|<game>
}

# KEYS[1]: the index. ARGV: now, claim-until, batch size.
CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, member in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], member) end
return due
"""


def job_id(job: str, game_id: str, key: str) -> str:
    """Return the id of the job that does `job` for decision or phase `key` of a game."""
    return f"{job}-{game_id}-{key}"


def _member(job: str, game_id: str, key: str) -> str:
    return f"{job}|{game_id}|{key}"


def expiry(deps: Deps, game_id: str, key: str, deadline: str) -> None:
    """Record that decision `key` of the game expires at `deadline` (ISO time)."""
    when = codec.parse_time(deadline).timestamp()
    deps.redis.zadd(keys.deadlines(), {_member("expire", game_id, key): when})


def resolution(deps: Deps, game_id: str, key: str) -> None:
    """Have phase `key` resolved now: enqueue its job, and keep it claimed in the index
    so that a sweeper enqueues it again if no worker finishes it in time."""
    claim_until = time.time() + float(deps.config["CLAIM_S"])
    deps.redis.zadd(keys.deadlines(), {_member("resolve", game_id, key): claim_until})
    _enqueue(deps, "resolve", game_id, key)


def league_round(deps: Deps, league_id: str, number: int, when: float) -> None:
    """Have round `number` of the league started at `when` (a Unix time)."""
    deps.redis.zadd(keys.deadlines(), {_member("round", league_id, str(number)): when})


def league_result(deps: Deps, league_id: str, game_id: str) -> None:
    """Have a finished league game recorded now (enqueued, and kept claimed in the index
    so that a sweeper enqueues it again if no worker finishes it)."""
    claim_until = time.time() + float(deps.config["CLAIM_S"])
    deps.redis.zadd(keys.deadlines(), {_member("league_result", league_id, game_id): claim_until})
    _enqueue(deps, "league_result", league_id, game_id)


def done(deps: Deps, job: str, game_id: str, key: str) -> None:
    """Forget work that was handled."""
    deps.redis.zrem(keys.deadlines(), _member(job, game_id, key))


def sweep(deps: Deps, now: float, batch: int = 100) -> int:
    """Enqueue a job for every due member of the index; return how many were enqueued."""
    claim = deps.redis.register_script(CLAIM)
    until = now + float(deps.config["CLAIM_S"])
    due = claim(keys=[keys.deadlines()], args=[now, until, batch])
    for member in due:
        job, game_id, key = member.decode().split("|", 2)
        _enqueue(deps, job, game_id, key)
    return len(due)


def _enqueue(deps: Deps, job: str, game_id: str, key: str) -> None:
    intervals = list(deps.config["RETRY_INTERVALS"])
    deps.queue.enqueue(
        JOBS[job],
        game_id,
        key,
        job_id=job_id(job, game_id, key),
        retry=Retry(max=len(intervals), interval=intervals),
        failure_ttl=7 * 24 * 3600,
        description=f"{job} {key} of game {game_id}",
    )

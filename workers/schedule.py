"""Deadlines: an index in Redis that every worker sweeps, feeding RQ jobs with fixed ids.

A deadline is a member `<game>|<decision key>` of the sorted set `mf:deadlines`, scored
by its time. Sweepers claim due members atomically (pushing their score `CLAIM_S` into
the future) and enqueue `expire-<game>-<key>`; the job removes the member once done. A
sweeper that dies after claiming only delays that deadline by `CLAIM_S`.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from rq import Retry

from events import codec, keys

if TYPE_CHECKING:
    from service.deps import Deps

logger = logging.getLogger(__name__)
CLAIM_S = 30.0
EXPIRE_JOB = "workers.jobs.expire"

# KEYS[1]: the deadline index. ARGV: now, claim-until, batch size.
CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, member in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], member) end
return due
"""


def job_id(game_id: str, key: str) -> str:
    """Return the id of the job that expires decision `key` of a game."""
    return f"expire-{game_id}-{key}"


def expiry(deps: Deps, game_id: str, key: str, deadline: str) -> None:
    """Record that decision `key` of the game expires at `deadline` (ISO time)."""
    when = codec.parse_time(deadline).timestamp()
    deps.redis.zadd(keys.deadlines(), {f"{game_id}|{key}": when})


def done(deps: Deps, game_id: str, key: str) -> None:
    """Forget a deadline that was handled."""
    deps.redis.zrem(keys.deadlines(), f"{game_id}|{key}")


def sweep(deps: Deps, now: float, batch: int = 100) -> int:
    """Enqueue an expiry job for every due deadline; return how many were enqueued."""
    claim = deps.redis.register_script(CLAIM)
    due = claim(keys=[keys.deadlines()], args=[now, now + CLAIM_S, batch])
    for member in due:
        game_id, key = member.decode().split("|", 1)
        deps.queue.enqueue(
            EXPIRE_JOB,
            game_id,
            key,
            job_id=job_id(game_id, key),
            retry=Retry(max=3, interval=[1, 5, 15]),
            failure_ttl=7 * 24 * 3600,
        )
    return len(due)

"""The service's Scheduler (service.ports) on Redis and RQ: work that must happen later,
kept in Redis and swept by every worker into RQ jobs.

The sorted set `mf:deadlines` holds members `<job>|<game>|<key>` scored by when they are
due: `expire` (a decision's deadline) and `resolve` (a simultaneous phase whose
submissions are all in); for leagues `round|<league>|<n>` (a round's start time) and
`league_result|<league>|<game>` (a finished league game to record) and
`league_followup|<league>|<seq>` (what a league event changes in its games, if the
request that appended it died first); `computer|<game>|<seat>-<key>`
(a computer seat owes decision `key`: due at once); `release|<game>|reservations` (a
waiting game's held seats lapse); `reveals|<game>|seat-seeds` (a full table's seats'
reveals close and the game starts: docs/fairness.md); `lapse|<game>|waiting` (a game
still waiting for seats is cancelled: service.waiting). Sweepers claim due
members atomically, pushing their score `CLAIM_S` into the future, and enqueue the job
`<job>-<game>-<key>`; the job removes the member once it has run. A worker that dies
holding a claim only delays that work until the claim lapses and another sweeper takes it.
A decision answered in time leaves the index with the append that answers it
(`done(..., pipe)`), so no job is ever queued for it.

Two RQ queues: work to do now (a ready phase's resolution, a finished league game's
result, a league event's follow-up: URGENT) on `<QUEUE>-now`, listened to first, and work
that fell due (expiries, league rounds, ...) on `<QUEUE>`. Every worker listens to both, in
that order, so a reveal waits for at most the job a worker is running, never behind a
backlog of deadlines. Notifications are not RQ jobs: their steps have due sets of their
own, run by each worker's notifier threads (workers.notifier), so no game waits on a
notification.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import redis
from redis.backoff import ExponentialBackoff
from redis.retry import Retry as RedisRetry
from rq import Queue, Retry, Worker

from events import codec, keys, scripts
from service import bootstrap
from service.ports import RESERVATIONS, SEAT_SEEDS, due_member, job_id

logger = logging.getLogger(__name__)
URGENT = ("resolve", "league_result", "league_followup")  # enqueued on the queue listened to first
NOTIFY = ("notify", "deliver", "remind", "digest", "mail")  # workers.notifier's steps
JOBS = {
    "expire": "workers.jobs.expire",
    "resolve": "workers.jobs.resolve",
    "round": "workers.jobs.start_round",  # round|<league>|<n>: open a league round's games
    "league_result": "workers.jobs.record_result",  # league_result|<league>|<game>
    "lapse": "workers.jobs.lapse",  # lapse|<game>|waiting: a game that waited too long
    "release": "workers.jobs.release",  # release|<game>|reservations: its held seats lapse
    "reveals": "workers.jobs.close_reveals",  # reveals|<game>|seat-seeds: the reveals close
    "computer": "workers.jobs.computer_turn",  # computer|<game>|<seat>-<key>: a computer's move
    # league_followup|<league>|<seq>: what league event <seq> changes in games, when the
    # request that appended it died before doing it (service.league_followups)
    "league_followup": "workers.jobs.league_followup",
}


def patient() -> dict[str, Any]:
    """Return redis-py options that retry a lost connection for about 30 s.

    RQ's worker quits when Redis fails while it files a job's result (only its wait for
    the next job rides out an outage), so the queue's client waits out a Redis restart."""
    retry = RedisRetry(ExponentialBackoff(cap=1.0, base=0.05), retries=35)
    return {"retry": retry, "retry_on_error": [redis.ConnectionError, redis.TimeoutError]}


_member = due_member


def _parts(member: bytes) -> list[str]:
    """A member's job, subject and key (the inverse of `_member`; a key may hold '|')."""
    return member.decode().split("|", 2)


class RqScheduler:
    """The deadline index on the store's Redis, and the RQ queue (maybe on another)."""

    def __init__(
        self, client: redis.Redis, queue: Queue, config: dict[str, Any], urgent: Queue | None = None
    ):
        self.redis, self.queue = client, queue  # `queue`: work that fell due
        self.urgent = urgent or Queue(f"{queue.name}-now", connection=queue.connection)
        self.claim_s = float(config["CLAIM_S"])
        self.intervals = list(config["RETRY_INTERVALS"])

    @classmethod
    def connect(cls, client: redis.Redis, config: dict[str, Any]) -> RqScheduler:
        """Build the scheduler for `client` and the configured queue (a service.bootstrap
        SchedulerFactory)."""
        wait = float(config.get("REDIS_TIMEOUT_S") or 2)  # RQ's worker lengthens its own
        rq_client = bootstrap.client(  # a plain Redis, or the master Sentinel names
            config["RQ_REDIS_URL"],
            blocking=False,
            socket_timeout=wait,
            socket_connect_timeout=wait,
            **patient(),
        )
        return cls(client, Queue(config["QUEUE"], connection=rq_client), config)

    @property
    def queues(self) -> list[Queue]:
        """The queues a worker listens to, in order: work to do now first."""
        return [self.urgent, self.queue]

    def queue_of(self, job: str) -> Queue:
        """Return the queue job `job` (a key of JOBS) is enqueued on."""
        return self.urgent if job in URGENT else self.queue

    def expiry(self, game_id: str, key: str, deadline: str, pipe: Any = None) -> None:
        """Record that decision `key` of the game expires at `deadline` (ISO time), in
        `pipe` if given (the caller executes it)."""
        when = codec.parse_time(deadline).timestamp()
        target = self.redis if pipe is None else pipe
        target.zadd(keys.deadlines(), {_member("expire", game_id, key): when})

    def computer_turn(self, game_id: str, key: str, pipe: Any = None, now: bool = False) -> None:
        """Have the computer seat named in `key` (`<seat>-<decision key>`) decide now: due at
        once in the index (in `pipe` if given), so that the next sweep enqueues it and a
        job lost with its worker is enqueued again when its claim lapses; with `now`,
        enqueued at once and claimed (the append that made it due has been written)."""
        if now:
            self._now("computer", game_id, key)
            return
        target = self.redis if pipe is None else pipe
        target.zadd(keys.deadlines(), {_member("computer", game_id, key): time.time()})

    def resolution(self, game_id: str, key: str) -> None:
        """Have phase `key` resolved now: enqueue its job, and keep it claimed in the index
        so that a sweeper enqueues it again if no worker finishes it in time."""
        self._now("resolve", game_id, key)

    def lapse(self, game_id: str, key: str, when: float) -> None:
        """Have the game cancelled at `when` (a Unix time) if it is still waiting."""
        self.redis.zadd(keys.deadlines(), {_member("lapse", game_id, key): when})

    def release(self, game_id: str, until: str) -> None:
        """Have the seats the game still holds freed at `until` (ISO time)."""
        when = codec.parse_time(until).timestamp()
        self.redis.zadd(keys.deadlines(), {_member("release", game_id, RESERVATIONS): when})

    def reveals_close(self, game_id: str, when: str, pipe: Any = None) -> None:
        """Have the game's seats' reveals closed at `when` (ISO time), in `pipe` if given."""
        score = codec.parse_time(when).timestamp()
        target = self.redis if pipe is None else pipe
        target.zadd(keys.deadlines(), {_member("reveals", game_id, SEAT_SEEDS): score})

    def league_round(self, league_id: str, number: int, when: float) -> None:
        """Have round `number` of the league started at `when` (a Unix time)."""
        self.redis.zadd(keys.deadlines(), {_member("round", league_id, str(number)): when})

    def later(self, job: str, subject: str, key: str, pipe: Any = None) -> None:
        """Have the work done by a worker `CLAIM_S` from now unless the caller, who does it
        at once, takes it off first (`done`): claimed in the index, in `pipe` if given."""
        target = self.redis if pipe is None else pipe
        target.zadd(keys.deadlines(), {_member(job, subject, key): time.time() + self.claim_s})

    def league_result(self, league_id: str, game_id: str) -> None:
        """Have a finished league game recorded now (enqueued, and kept claimed in the
        index so that a sweeper enqueues it again if no worker finishes it)."""
        self._now("league_result", league_id, game_id)

    def done(self, job: str, subject: str, key: str, pipe: Any = None) -> None:
        """Forget work that was handled (or is no longer needed: a decision answered), in
        `pipe` if given (the caller executes it)."""
        target = self.redis if pipe is None else pipe
        target.zrem(keys.deadlines(), _member(job, subject, key))

    def pending(self, job: str, subject: str, key: str) -> bool:
        """Return True while the work is in the index (not handled, not answered)."""
        return self.redis.zscore(keys.deadlines(), _member(job, subject, key)) is not None

    def waited_on(self) -> set[str]:
        """Return the games the index holds a deadline or a queued phase of."""
        members = map(_parts, self.redis.zrange(keys.deadlines(), 0, -1))
        return {game for job, game, _ in members if job in ("expire", "resolve")}

    def health(self, now: float) -> dict[str, Any]:
        """See service.ports.Scheduler.health. A worker is counted while RQ keeps it
        registered (it leaves the set when it stops, or when its registration lapses)."""
        queues = {}
        for queue in self.queues:
            head = queue.get_job_ids(0, 1)
            job = queue.fetch_job(head[0]) if head else None
            since = job.enqueued_at.timestamp() if job and job.enqueued_at else now
            queues[queue.name] = {"depth": queue.count, "oldest_s": max(0.0, now - since)}
        due_sets = (keys.notify_due(turns=True), keys.notify_due())
        firsts = [self.redis.zrange(k, 0, 0, withscores=True) for k in due_sets]
        queues[f"{self.queue.name}-notify"] = {  # the notifier's steps due and unclaimed
            "depth": sum(self.redis.zcount(k, "-inf", now) for k in due_sets),
            "oldest_s": max([0.0, *(now - f[0][1] for f in firsts if f)]),
        }
        workers = len(Worker.all_keys(connection=self.queue.connection))
        first = self.redis.zrange(keys.deadlines(), 0, 0, withscores=True)
        overdue = max(0.0, now - first[0][1]) if first else 0.0
        return {"workers": workers, "queues": queues, "overdue_s": overdue}

    def sweep(self, now: float, batch: int = 100) -> int:
        """Enqueue a job for every due member of the index; return how many were enqueued."""
        claim = scripts.registered(self.redis, scripts.CLAIM_DUE)
        due = claim(keys=[keys.deadlines()], args=[now, now + self.claim_s, batch])
        for member in due:
            job, subject, key = _parts(member)
            if job in NOTIFY:  # left by a version that ran notifications as RQ jobs
                self._to_notifier(member)
                continue
            self._enqueue(job, subject, key)
        return len(due)

    def _to_notifier(self, member: bytes) -> None:
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(keys.notify_due(), {member: time.time()}, nx=True)
        pipe.zrem(keys.deadlines(), member)
        pipe.execute()

    def _now(self, job: str, subject: str, key: str) -> None:
        claim_until = time.time() + self.claim_s
        self.redis.zadd(keys.deadlines(), {_member(job, subject, key): claim_until})
        self._enqueue(job, subject, key)

    def _enqueue(self, job: str, subject: str, key: str) -> None:
        """Enqueue the work's job, unless that job still waits in its queue: a claim that
        lapsed while the queue was long must not add the same job again (each copy would
        run, and the queue would grow with copies the longer it is).

        Waiting means being in the queue's list, not a job whose status says "queued": a
        worker killed between taking a job off the list and starting it leaves it
        "queued" in RQ's intermediate queue, which RQ looks at again only minutes later."""
        queue, name = self.queue_of(job), job_id(job, subject, key)
        if queue.connection.lpos(queue.key, name) is not None:
            return
        queue.enqueue(
            JOBS[job],
            subject,
            key,
            job_id=name,
            retry=Retry(max=len(self.intervals), interval=self.intervals),
            failure_ttl=7 * 24 * 3600,
            result_ttl=0,  # what a job did is in the game's log and the worker's log line
            description=f"{job} {key} of game {subject}",
        )

"""Outages: no decision is defaulted because the service, every worker or the API was down.

Every worker's sweeper beats (`beat`; stores.operations keeps them) a few times a second:
one script reads the last heartbeat (`mf:{workers}:heartbeat`), writes the new one, and
when the gap was longer than `OUTAGE_AFTER_S` records the gap as an outage in
`mf:{workers}:outages` (member `<start>:<end>`), atomically, so the first worker back
records it once and before it sweeps any deadline.
Every API process beats the same way, every `API_BEAT_S`, on its own key
(`mf:{workers}:api-heartbeat`, `keep_beating`), into the same outages, where a gap longer
than `API_GAP_S` is already an outage: workers that keep running while the API is down,
or frozen for a few seconds, must not default decisions players cannot make.
An expiry whose deadline fell inside an outage, or within the grace window after it
(`OUTAGE_GRACE_S`, or the game's decision timeout if shorter), is not defaulted: the
decision gets a fresh deadline, `grace` after the later of now and the outage's end,
recorded as `game.DeadlineExtended` in the game (service.deadline_commands.expire).
An expiry is postponed, not applied, until the API has beaten since the deadline: while
the API is down no outage is on record yet, and the API's first beat back records it. No
API heartbeat at all (no API ever ran against this Redis) counts as up. That rule, the
grace window and the fresh deadline are the deadline rule's (events.deadlines); this
module keeps the heartbeats and reads the outages.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import TYPE_CHECKING

import redis

from events import codec
from events.deadlines import API_BEAT_S, api_gap
from service import metrics

if TYPE_CHECKING:
    from stores.operations import OperationsStore

logger = logging.getLogger(__name__)


def beat(
    store: OperationsStore, now: float, threshold: float, api: bool = False
) -> tuple[float, float] | None:
    """Record that a worker (or, `api`, an API process) is alive at `now`; return the
    outage it ends, if any (counted in /metrics)."""
    gap = store.beat(now, threshold, api)
    metrics.outage("api" if api else "workers", gap)
    return gap


def span(gap: tuple[float, float]) -> str:
    """Say an outage in readable times: 'from 2026-11-28T04:36:25.109Z to ...Z (12.4 s)'."""
    start, end = gap
    return f"from {codec.iso(start)} to {codec.iso(end)} ({end - start:.1f} s)"


def keep_beating(store: OperationsStore, threshold: float, stop: threading.Event) -> None:
    """Beat the API's heartbeat every API_BEAT_S until `stop` is set (an API process runs
    this beside its requests: a thread, a greenlet under gevent's patching); a gap longer
    than `api_gap(threshold)` is recorded as an outage."""
    while True:
        try:
            if gap := beat_api(store, time.time(), threshold):
                logger.warning("API outage %s: deadlines in it get fresh ones", span(gap))
        except redis.RedisError as e:  # keep beating through a Redis restart
            metrics.redis_error("api-heartbeat", e)
            logger.warning("API heartbeat: Redis unreachable (%s); retrying", e)
        if stop.wait(API_BEAT_S):
            return


def beat_api(store: OperationsStore, now: float, threshold: float) -> tuple[float, float] | None:
    """Beat the API's heartbeat at `now` (an API process is alive: its beating greenlet, or
    a request that must know whether a gap just ended); return the outage it ends."""
    return beat(store, now, api_gap(threshold), api=True)


def during(store: OperationsStore, start: float, end: float) -> list[dict[str, object]]:
    """Return the outages on record that overlap [start, end] (Unix times), oldest first,
    as people read them: ISO times and how long each lasted. The workers' and the API's
    gaps are kept in one list, so an outage does not say which of them stopped."""
    return [
        {"start": codec.iso(a), "end": codec.iso(b), "seconds": round(b - a, 3)}
        for a, b in store.outages_since(start)
        if a <= end
    ]

"""What the operator's checks read and the outage rule keeps (service.outages,
service.readiness, service.metrics): the workers' and the API's heartbeats, the outages
they recorded, and how many games the lobby lists by status.

Keys (events.keys): `mf:{workers}:heartbeat` and `mf:{workers}:api-heartbeat` (a Unix
time), `mf:{workers}:outages` (sorted set, member `<start>:<end>` scored by the end, the
newest KEEP kept). A beat is one script on the `{workers}` keys (events.scripts.HEARTBEAT):
it reads the last beat, writes the new one and records the gap as an outage, atomically,
so of the workers coming back together one records it. The games by status are the
lobby's sets (`mf:{lobby}:waiting|active|finished`), only counted here.
"""

from __future__ import annotations

from typing import Protocol

import redis

from events import keys, scripts

KEEP = 1000  # outages remembered (short API gaps among them)


class OperationsStore(Protocol):
    def beat(self, now: float, threshold: float, api: bool = False) -> tuple[float, float] | None:
        """Record that a worker's sweeper (`api`: an API process) is alive at `now`; if the
        last beat is more than `threshold` s old, record and return that gap (once: a beat
        not after the last one changes nothing)."""

    def last_beat(self, api: bool = False) -> float | None:
        """When a sweeper (`api`: an API process) last beat, or None if none ever did."""

    def outages_since(self, since: float) -> list[tuple[float, float]]:
        """The outages on record that ended at or after `since`, oldest first."""

    def games_listed(self, status: str) -> int:
        """How many games the lobby lists under `status` (waiting, active, finished)."""


def gap_of(text: str) -> tuple[float, float]:
    start, end = text.split(":")
    return float(start), float(end)


class RedisOperations:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def beat(self, now: float, threshold: float, api: bool = False) -> tuple[float, float] | None:
        script = scripts.registered(self.redis, scripts.HEARTBEAT)
        heartbeat = keys.api_heartbeat() if api else keys.heartbeat()
        got = script(keys=[heartbeat, keys.outages()], args=[repr(now), threshold, KEEP])
        return gap_of(got.decode()) if got else None

    def last_beat(self, api: bool = False) -> float | None:
        raw = self.redis.get(keys.api_heartbeat() if api else keys.heartbeat())
        return float(raw) if raw else None

    def outages_since(self, since: float) -> list[tuple[float, float]]:
        return [gap_of(m.decode()) for m in self.redis.zrangebyscore(keys.outages(), since, "+inf")]

    def games_listed(self, status: str) -> int:
        return int(self.redis.zcard(keys.lobby(status)))

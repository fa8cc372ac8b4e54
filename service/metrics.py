"""What the service counts for its operator: `GET /metrics` in the Prometheus text format
(docs/operations.md, "Metrics").

The counters and histograms are `prometheus_client`'s, the reference client the Prometheus
project maintains. Under `marketfold serve` every process (each gunicorn worker, each RQ
worker) writes its values to files in `PROMETHEUS_MULTIPROC_DIR`, which serve sets to a
directory of its own, emptied at each start; `/metrics` then adds up every process's
files (the client's multiprocess mode). A process started without that variable (a test's
app, a lone `marketfold worker`) counts in its own memory and serves only its own values.

Gauges of the whole service (games and leagues by status, queue depth, the oldest queued
job, the sweeper's last beat) are read from the stores when `/metrics` is scraped, not
kept by any process.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily

if TYPE_CHECKING:
    from collections.abc import Iterator

    from service.bootstrap import Bootstrap

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
SLOW = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)

REQUESTS = Counter(
    "marketfold_http_requests", "HTTP requests answered, by route and status", ["route", "status"]
)
REQUEST_SECONDS = Histogram(
    "marketfold_http_request_duration_seconds",
    "Time to answer a request (a stream: to its first byte), by route",
    ["route"],
    buckets=FAST,
)
APPENDS = Counter("marketfold_appends", "Appends to a game's or a league's log", ["log"])
APPEND_SECONDS = Histogram(
    "marketfold_append_duration_seconds", "Time of one append (fsync included)", buckets=FAST
)
STREAMS = Gauge(
    "marketfold_open_streams", "Event streams and feeds open now", multiprocess_mode="livesum"
)
JOBS = Counter("marketfold_jobs", "Jobs the workers ran, by job and outcome", ["job", "status"])
JOB_SECONDS = Histogram(
    "marketfold_job_duration_seconds", "Time a job ran, by job", ["job"], buckets=FAST
)
JOB_WAIT_SECONDS = Histogram(
    "marketfold_job_wait_seconds",
    "Time a job waited in its queue before a worker took it, by queue",
    ["queue"],
    buckets=SLOW,
)
DEADLINES = Counter(
    "marketfold_deadlines_applied", "Decisions defaulted at their deadline, by ruleset", ["ruleset"]
)
DEADLINE_LATENESS = Histogram(
    "marketfold_deadline_lateness_seconds",
    "How long after its deadline a default was applied",
    buckets=SLOW,
)
REVEALS = Counter("marketfold_reveals", "Simultaneous phases resolved")
REVEAL_SECONDS = Histogram(
    "marketfold_reveal_latency_seconds",
    "From the last submission of a phase to its resolution",
    buckets=SLOW,
)
OUTAGES = Counter("marketfold_outages", "Heartbeat gaps recorded as outages, by who beat", ["by"])
OUTAGE_SECONDS = Histogram(
    "marketfold_outage_duration_seconds", "Length of a recorded heartbeat gap", buckets=SLOW
)
REDIS_ERRORS = Counter(
    "marketfold_redis_errors", "Store errors met, by where and kind", ["where", "kind"]
)
SIGNATURES = Counter("marketfold_signatures", "Ed25519 signatures made by the service")
NOTIFICATIONS = Counter(
    "marketfold_notifications",
    "Notification deliveries, by channel and outcome",
    ["channel", "outcome"],
)

MODERATION = Counter(
    "marketfold_moderation", "Reports filed and operators' moderation actions", ["action"]
)


def request(route: str, status: int, seconds: float) -> None:
    REQUESTS.labels(route, str(status)).inc()
    REQUEST_SECONDS.labels(route).observe(seconds)


def appended(log: str, seconds: float) -> None:
    APPENDS.labels(log).inc()
    APPEND_SECONDS.observe(seconds)


def job_done(
    job: str, status: str, queue: str | None, enqueued: float | None, started: float | None
) -> None:
    """Count a job that ran (times as Unix times, None when not run by RQ)."""
    JOBS.labels(job, status).inc()
    now = time.time()
    if started is not None:
        JOB_SECONDS.labels(job).observe(max(0.0, now - started))
        if enqueued is not None and queue is not None:
            JOB_WAIT_SECONDS.labels(queue).observe(max(0.0, started - enqueued))
    if job == "resolve" and status == "resolved" and enqueued is not None:
        REVEALS.inc()  # queued by the append of the phase's last submission
        REVEAL_SECONDS.observe(max(0.0, now - enqueued))


def deadline_applied(ruleset: str, late_s: float) -> None:
    DEADLINES.labels(ruleset).inc()
    DEADLINE_LATENESS.observe(max(0.0, late_s))


def redis_error(where: str, error: BaseException) -> None:
    REDIS_ERRORS.labels(where, type(error).__name__).inc()


def outage(by: str, gap: tuple[float, float] | None) -> None:
    if gap is not None:
        OUTAGES.labels(by).inc()
        OUTAGE_SECONDS.observe(max(0.0, gap[1] - gap[0]))


class _Service:
    """Gauges read from the stores at each scrape."""

    def __init__(self, boot: Bootstrap):
        self.boot = boot

    def collect(self) -> Iterator[GaugeMetricFamily]:
        now, operations = time.time(), self.boot.operations
        games = GaugeMetricFamily("marketfold_games", "Games by status", labels=["status"])
        for status in ("waiting", "active", "finished"):
            games.add_metric([status], operations.games_listed(status))
        yield games
        yield GaugeMetricFamily("marketfold_leagues", "Leagues", value=self.boot.leagues.count())
        last = operations.last_beat()
        beat = GaugeMetricFamily(
            "marketfold_sweeper_beat_age_seconds",
            "Seconds since a worker's deadline sweeper last beat (-1: never)",
            value=-1.0 if last is None else now - last,
        )
        yield beat
        yield GaugeMetricFamily(
            "marketfold_transparency_alarms",
            "Alarms about the public log of games: leaves lost from its index or cut from the log",
            value=self.boot.tlog.alarms(),
        )
        seen = self.boot.scheduler.health(now)
        depth = GaugeMetricFamily("marketfold_queue_depth", "Jobs waiting", labels=["queue"])
        oldest = GaugeMetricFamily(
            "marketfold_queue_oldest_job_seconds", "Age of the oldest waiting job", labels=["queue"]
        )
        for name, q in seen["queues"].items():
            depth.add_metric([name], q["depth"])
            oldest.add_metric([name], q["oldest_s"])
        yield depth
        yield oldest
        yield GaugeMetricFamily(
            "marketfold_workers", "RQ workers registered", value=seen["workers"]
        )
        yield GaugeMetricFamily(
            "marketfold_deadline_overdue_seconds",
            "How long the most overdue deadline in the index has been due",
            value=seen["overdue_s"],
        )


def exposition(boot: Bootstrap) -> bytes:
    """Return every process's values and the service's gauges, in the text format."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(_ThisProcess())
    registry.register(_Service(boot))
    return generate_latest(registry)


class _ThisProcess:
    """This process's own values (no multiprocess directory)."""

    def collect(self) -> Iterator:
        yield from REGISTRY.collect()

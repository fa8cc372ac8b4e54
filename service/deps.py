"""The connections one process needs, built lazily from configuration."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis
from redis.backoff import ExponentialBackoff
from redis.retry import Retry
from rq import Queue

from events.store import EventStore
from service.fanout import Hub


@dataclass
class Deps:
    redis: redis.Redis
    store: EventStore
    queue: Queue
    config: dict[str, Any]
    hub: Hub  # the shared readers of open event streams (XREAD BLOCK on their own client)
    # where a new game's secret seed comes from; tests may replace it on their own app
    # object to replay a known deal (no configuration reaches it)
    new_seed: Callable[[], bytes] = lambda: secrets.token_bytes(32)

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> Deps:
        """Build the clients (redis-py connects on first use, not here)."""
        # fails fast (the API answers 503); under gevent many requests share the pool, so a
        # request waits for a free connection rather than failing when all are in use
        pool = redis.BlockingConnectionPool.from_url(
            config["REDIS_URL"], max_connections=int(config["REDIS_CONNECTIONS"]), timeout=10
        )
        client = redis.Redis(connection_pool=pool)
        rq_client = redis.Redis.from_url(config["RQ_REDIS_URL"], **patient())
        store = EventStore(client, snapshot_every=int(config["SNAPSHOT_EVERY"]))
        queue = Queue(config["QUEUE"], connection=rq_client)
        timeout = float(config["SSE_HEARTBEAT_S"]) + 10
        # one connection per Redis stream with open event streams in this process (a
        # game or a feed): bounded by the open connections (gunicorn --worker-connections)
        blocking = redis.Redis.from_url(
            config["REDIS_URL"], socket_timeout=timeout, max_connections=1_000_000
        )
        hub = Hub(blocking, float(config["SSE_HEARTBEAT_S"]))
        return cls(client, store, queue, config, hub)


def patient() -> dict[str, Any]:
    """Return redis-py options that retry a lost connection for about 30 s.

    RQ's worker quits when Redis fails while it files a job's result (only its wait for
    the next job rides out an outage), so the queue's client waits out a Redis restart."""
    retry = Retry(ExponentialBackoff(cap=1.0, base=0.05), retries=35)
    return {"retry": retry, "retry_on_error": [redis.ConnectionError, redis.TimeoutError]}

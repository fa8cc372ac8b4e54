"""Everything one process needs to run the use cases, built once from configuration:
the connections (lazy: redis-py connects on first use), the scheduler, and the two
points tests may replace (a game's seed source, and a hook run before every append)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import redis

from events.store import EventStore
from service.fanout import Hub
from service.ports import Scheduler

SchedulerFactory = Callable[[redis.Redis, dict[str, Any]], Scheduler]


def _nothing() -> None:
    return None


@dataclass
class Bootstrap:
    config: dict[str, Any]
    redis: redis.Redis
    store: EventStore
    scheduler: Scheduler
    hub: Hub  # the shared readers of open event streams (XREAD BLOCK on their own client)
    # where a new game's secret seed comes from; tests may replace it on their own app
    # object to replay a known deal (no configuration reaches it)
    new_seed: Callable[[], bytes] = field(default=lambda: secrets.token_bytes(32))
    # run by the command loop right before each append; tests install one in a worker
    # to hold it mid-command (tests/paused_worker.py)
    before_append: Callable[[], None] = _nothing

    def ping(self) -> None:
        """Raise a redis error unless the store answers."""
        self.redis.ping()


def connect(config: dict[str, Any], scheduler: SchedulerFactory) -> Bootstrap:
    """Build the clients from `config` and the scheduler from `scheduler(redis, config)`."""
    # fails fast (the API answers 503); under gevent many requests share the pool, so a
    # request waits for a free connection rather than failing when all are in use
    pool = redis.BlockingConnectionPool.from_url(
        config["REDIS_URL"], max_connections=int(config["REDIS_CONNECTIONS"]), timeout=10
    )
    client = redis.Redis(connection_pool=pool)
    store = EventStore(client, snapshot_every=int(config["SNAPSHOT_EVERY"]))
    timeout = float(config["SSE_HEARTBEAT_S"]) + 10
    # one connection per Redis stream with open event streams in this process (a
    # game or a feed): bounded by the open connections (gunicorn --worker-connections)
    blocking = redis.Redis.from_url(
        config["REDIS_URL"], socket_timeout=timeout, max_connections=1_000_000
    )
    hub = Hub(blocking, float(config["SSE_HEARTBEAT_S"]))
    return Bootstrap(config, client, store, scheduler(client, config), hub)

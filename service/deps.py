"""The connections one process needs, built lazily from configuration."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import redis
from rq import Queue

from events.store import EventStore


@dataclass
class Deps:
    redis: redis.Redis
    store: EventStore
    queue: Queue
    config: dict[str, Any]
    blocking: redis.Redis  # for XREAD BLOCK: a socket timeout longer than any block

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> Deps:
        """Build the clients (redis-py connects on first use, not here)."""
        client = redis.Redis.from_url(config["REDIS_URL"])
        rq_client = (
            client
            if config["RQ_REDIS_URL"] == config["REDIS_URL"]
            else redis.Redis.from_url(config["RQ_REDIS_URL"])
        )
        store = EventStore(client, snapshot_every=int(config["SNAPSHOT_EVERY"]))
        queue = Queue(config["QUEUE"], connection=rq_client)
        timeout = float(config["SSE_HEARTBEAT_S"]) + 10
        blocking = redis.Redis.from_url(config["REDIS_URL"], socket_timeout=timeout)
        return cls(client, store, queue, config, blocking)

"""Everything one process needs to run the use cases, built once from configuration:
the connections (lazy: redis-py connects on first use), the scheduler, and the two
points tests may replace (a game's seed source, and a hook run before every append)."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import redis

from events.recorder import RedisRecorder
from events.repository import GameRepository
from events.tlog import PublicLog
from service import config, redis_gevent
from service.fanout import Hub
from service.ports import Scheduler

SchedulerFactory = Callable[[redis.Redis, dict[str, Any]], Scheduler]
QUICK_TIMEOUT_S = 0.4  # /healthz answers 503 within a second of a stalled Redis


def _nothing() -> None:
    return None


@dataclass
class Bootstrap:
    config: dict[str, Any]
    redis: redis.Redis
    store: GameRepository  # the games, loaded through `store.recorder`
    scheduler: Scheduler
    hub: Hub  # the shared readers of open event streams (XREAD BLOCK on their own client)
    tlog: PublicLog  # the public log of games (service/transparency.py)
    # a client that gives up after QUICK_TIMEOUT_S: the health check, and the rate count
    # of routes that need no Redis (a stalled Redis must not hold them)
    quick: redis.Redis | None = None
    # where a new game's secret seed comes from; tests may replace it on their own app
    # object to replay a known deal (no configuration reaches it)
    new_seed: Callable[[], bytes] = field(default=lambda: secrets.token_bytes(32))
    # run by the command loop right before each append; tests install one in a worker
    # to hold it mid-command (tests/paused_worker.py)
    before_append: Callable[[], None] = _nothing

    def ping(self) -> None:
        """Raise a redis error unless the store answers within QUICK_TIMEOUT_S."""
        (self.quick or self.redis).ping()


def client(url: str, blocking: bool = True, **options: Any) -> redis.Redis:
    """Return a client for `url`: redis-py's cluster client for `redis+cluster://` (the
    nodes listed are where it discovers the cluster), else a plain one. With `blocking`,
    connections come from a blocking pool of `max_connections` (per node in a cluster):
    under gevent many requests share it, and a request waits for a free connection
    rather than failing."""
    redis_gevent.install()
    pool_class: Any = redis.BlockingConnectionPool if blocking else redis.ConnectionPool
    if not config.is_cluster(url):
        if blocking:
            options.setdefault("timeout", 10)  # the wait for a free connection
        return redis.Redis(connection_pool=pool_class.from_url(url, **options))
    if blocking:
        pool_class = functools.partial(redis.BlockingConnectionPool, timeout=10)
    from redis.cluster import ClusterNode, RedisCluster

    nodes = []
    for spec in url.removeprefix(config.CLUSTER_SCHEME).split("/", 1)[0].split(","):
        host, _, port = spec.rpartition(":")
        nodes.append(ClusterNode(host or "127.0.0.1", int(port)))
    return RedisCluster(  # type: ignore[return-value]
        startup_nodes=nodes, connection_pool_class=pool_class, **options
    )


def connect(cfg: dict[str, Any], scheduler: SchedulerFactory) -> Bootstrap:
    """Build the clients from `cfg` and the scheduler from `scheduler(redis, cfg)`."""
    # a stalled Redis (stopped, or its host gone) is a timeout after REDIS_TIMEOUT_S, not
    # a wait without end (redis-py waits forever by default)
    wait = float(cfg["REDIS_TIMEOUT_S"])
    store_client = client(
        cfg["REDIS_URL"],
        max_connections=int(cfg["REDIS_CONNECTIONS"]),
        socket_timeout=wait,
        socket_connect_timeout=wait,
    )
    store = GameRepository(RedisRecorder(store_client), snapshot_every=int(cfg["SNAPSHOT_EVERY"]))
    timeout = float(cfg["SSE_HEARTBEAT_S"]) + 10
    # one connection per Redis stream with open event streams in this process (a
    # game or a feed): bounded by the open connections (gunicorn --worker-connections)
    blocking = client(
        cfg["REDIS_URL"],
        blocking=False,
        socket_timeout=timeout,
        socket_connect_timeout=wait,
        max_connections=1_000_000,
    )
    hub = Hub(blocking, float(cfg["SSE_HEARTBEAT_S"]))
    quick = client(
        cfg["REDIS_URL"],
        blocking=False,
        socket_timeout=QUICK_TIMEOUT_S,
        socket_connect_timeout=QUICK_TIMEOUT_S,
        max_connections=64,
    )
    tlog = PublicLog(store_client)
    return Bootstrap(cfg, store_client, store, scheduler(store_client, cfg), hub, tlog, quick=quick)

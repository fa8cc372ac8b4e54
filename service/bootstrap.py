"""Everything one process needs to run the use cases, built once from configuration:
the connections (lazy: redis-py connects on first use), the scheduler, and the two
points tests may replace (a game's seed source, and a hook run before every append)."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

import redis
from redis.sentinel import Sentinel, SentinelManagedConnection

from events.recorder import RedisRecorder
from events.replication import Sync
from events.repository import GameRepository
from events.tlog import PublicLog
from service import config, redis_gevent
from service.ports import Scheduler
from stores.attempts import AttemptsStore, RedisAttempts
from stores.chat import ChatStore, RedisChat
from stores.checkpoints import CheckpointStore, RedisCheckpoints
from stores.computer_seats import ComputerSeatsStore, RedisComputerSeats
from stores.hub import RedisHub, StreamHub
from stores.inbox import InboxStore, RedisInbox
from stores.key_history import KeyHistoryStore, RedisKeyHistory
from stores.leagues import LeagueStore, RedisLeagues
from stores.limits import LimitsStore, RedisLimits
from stores.link_key import LinkKeyStore, RedisLinkKey
from stores.lobby import LobbyStore, RedisLobby
from stores.moderation import ModerationStore, RedisModeration
from stores.notify_outbox import NotifyOutboxStore, RedisNotifyOutbox
from stores.notify_prefs import NotifyPrefsStore, RedisNotifyPrefs
from stores.operations import OperationsStore, RedisOperations
from stores.players import PlayerStore, RedisPlayers
from stores.push import PushStore, RedisPush
from stores.recipients import RecipientsStore, RedisRecipients
from stores.roles import RedisRoles, RoleStore
from stores.stream_slots import RedisStreamSlots, StreamSlotsStore
from stores.tables import RedisTables, TablesStore
from stores.tokens import RedisTokens, TokenStore
from stores.webhooks import RedisWebhooks, WebhookStore

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
    hub: StreamHub  # the shared readers of open event streams (XREAD BLOCK on their own client)
    tlog: PublicLog  # the public log of games (service/transparency.py)
    webhooks: WebhookStore  # players' webhooks, their failures and delivery logs
    push: PushStore  # players' Web Push subscriptions
    link_key: LinkKeyStore  # the key that signs unsubscribe and verification links
    players: PlayerStore  # players, handles, games finished (stores.players)
    tokens: TokenStore  # bearer tokens, kept hashed (stores.tokens)
    roles: RoleStore  # roles granted and their log (stores.roles)
    moderation: ModerationStore  # reports, mutes and bans (stores.moderation)
    chat: ChatStore  # each game's table chat (stores.chat)
    inbox: InboxStore  # players' notes (notifications), read marks, unfinished games
    notify_prefs: NotifyPrefsStore  # players' notification settings and addresses
    notify_outbox: NotifyOutboxStore  # notification steps due, leases, marks, digests
    recipients: RecipientsStore  # what a notification step reads of its player at once
    operations: OperationsStore  # heartbeats, outages, lobby counts (stores/operations.py)
    leagues: LeagueStore  # the leagues' index and seat commitments (stores/leagues.py)
    checkpoints: CheckpointStore  # witnesses' cosigned checkpoints (stores/checkpoints.py)
    key_history: KeyHistoryStore  # the signing keys' leaves (stores/key_history.py)
    lobby: LobbyStore  # the lobby's index and cursor key (stores.lobby)
    tables: TablesStore  # secrets, rematches, invitations, games created (stores.tables)
    limits: LimitsStore  # rate counters and the stalled sweep's turn (stores.limits)
    attempts: AttemptsStore  # refused actions kept per game (stores.attempts)
    computer_seats: ComputerSeatsStore  # computer players and their secrets
    stream_slots: StreamSlotsStore  # the event streams each caller holds open
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


@dataclass(frozen=True)
class SentinelSpec:
    """What a `redis+sentinel://` URL names: the sentinels, the service (the master's name
    in Sentinel), the database and the credentials of the master (not the sentinels')."""

    sentinels: list[tuple[str, int]]
    service: str
    db: int = 0
    username: str | None = None
    password: str | None = None


def sentinel_spec(url: str) -> SentinelSpec:
    """Parse `redis+sentinel://[[user]:password@]host:port[,host:port...]/SERVICE[/DB]`
    (the form the `limits` library and others read; port 26379 when left out)."""
    rest = url.removeprefix(config.SENTINEL_SCHEME)
    where, _, path = rest.partition("/")
    userinfo, _, hosts = where.rpartition("@")
    user, _, password = userinfo.partition(":") if userinfo else ("", "", "")
    sentinels = []
    for spec in filter(None, hosts.split(",")):
        host, _, port = spec.rpartition(":") if ":" in spec else (spec, "", "26379")
        sentinels.append((host or "127.0.0.1", int(port)))
    parts = [unquote(p) for p in path.strip("/").split("/") if p]
    if not sentinels or not parts or len(parts) > 2 or not all(p.isdigit() for p in parts[1:]):
        raise ValueError(f"not a redis+sentinel://host:port,.../SERVICE[/DB] URL: {url!r}")
    return SentinelSpec(
        sentinels,
        parts[0],
        int(parts[1]) if len(parts) > 1 else 0,
        unquote(user) or None,
        unquote(password) or None,
    )


class _FollowingConnection(SentinelManagedConnection):
    """redis-py's Sentinel connection, also when a command's retry reconnects it: redis-py
    (8.1) then calls `connect_check_health`, which retries the address it had, so a
    worker blocked in BLPOP when its master died kept dialling the dead master for all
    of its retries (about 30 s, measured) instead of asking the sentinels
    (redis/redis-py#3874, open). Here every connect of a closed connection asks them."""

    def connect_check_health(
        self, check_health: bool = True, retry_socket_connect: bool = True
    ) -> None:
        if retry_socket_connect and not self._sock:
            self.connect()  # ask the sentinels, then connect_to(address) below
            return
        super().connect_check_health(
            check_health=check_health, retry_socket_connect=retry_socket_connect
        )


def _sentinel_master(url: str, options: dict[str, Any]) -> redis.Redis:
    """A client of the master that Sentinel names for the URL's service: redis-py's
    `Sentinel.master_for`, whose connections ask the sentinels where the master is
    whenever they connect, and drop a connection that finds a replica (a failover)."""
    spec = sentinel_spec(url)
    sockets = {k: v for k, v in options.items() if k.startswith("socket_")}
    sentinel = Sentinel(spec.sentinels, sentinel_kwargs=sockets)
    return sentinel.master_for(
        spec.service,
        db=spec.db,
        username=spec.username,
        password=spec.password,
        connection_class=_FollowingConnection,
        **options,
    )


def client(url: str, blocking: bool = True, **options: Any) -> redis.Redis:
    """Return a client for `url`: redis-py's cluster client for `redis+cluster://` (the
    nodes listed are where it discovers the cluster), the master named by Sentinel for
    `redis+sentinel://` (`sentinel_spec`), else a plain one. With `blocking`,
    connections come from a blocking pool of `max_connections` (per node in a cluster;
    not through Sentinel, whose pool redis-py makes non-blocking only): under gevent many
    requests share it, and a request waits for a free connection rather than failing."""
    redis_gevent.install()
    if config.is_sentinel(url):
        return _sentinel_master(url, options)
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
    sync = Sync(
        int(cfg["APPEND_REPLICAS"]),
        bool(cfg["APPEND_REPLICA_AOF"]),
        int(cfg["APPEND_REPLICA_TIMEOUT_MS"]),
    )
    recorder = RedisRecorder(store_client, sync)
    store = GameRepository(recorder, snapshot_every=int(cfg["SNAPSHOT_EVERY"]))
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
    hub = RedisHub(blocking, float(cfg["SSE_HEARTBEAT_S"]))
    quick = client(
        cfg["REDIS_URL"],
        blocking=False,
        socket_timeout=QUICK_TIMEOUT_S,
        socket_connect_timeout=QUICK_TIMEOUT_S,
        max_connections=64,
    )
    tlog = PublicLog(store_client)
    return Bootstrap(
        config=cfg,
        redis=store_client,
        store=store,
        scheduler=scheduler(store_client, cfg),
        hub=hub,
        tlog=tlog,
        webhooks=RedisWebhooks(client=store_client),
        push=RedisPush(client=store_client),
        link_key=RedisLinkKey(client=store_client),
        players=RedisPlayers(client=store_client),
        tokens=RedisTokens(client=store_client),
        roles=RedisRoles(client=store_client),
        moderation=RedisModeration(client=store_client),
        chat=RedisChat(client=store_client),
        inbox=RedisInbox(store_client, one_redis=not recorder.cluster),
        notify_prefs=RedisNotifyPrefs(store_client),
        notify_outbox=RedisNotifyOutbox(store_client),
        recipients=RedisRecipients(store_client),
        operations=RedisOperations(client=store_client),
        leagues=RedisLeagues(client=store_client),
        checkpoints=RedisCheckpoints(client=store_client),
        key_history=RedisKeyHistory(client=store_client),
        lobby=RedisLobby(store_client),
        tables=RedisTables(store_client),
        limits=RedisLimits(store_client, store, one_trip=recorder.guards, quick=quick),
        attempts=RedisAttempts(store_client),
        computer_seats=RedisComputerSeats(store_client),
        stream_slots=RedisStreamSlots(store_client),
        quick=quick,
    )

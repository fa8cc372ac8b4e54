"""An append answered only once replicas have it (APPEND_REPLICAS; docs/reliability.md,
"Replicas: nothing acknowledged lost").

Replication is asynchronous: a master that dies right after answering can take its last
writes with it. With a `Sync` the recorder sends, on the very connection that ran the
append's script and in the same write, `WAIT <replicas> <timeout>` (with `aof`, a WAIT
and then `WAITAOF 0 <replicas> <timeout>`: the replicas have it in their AOF, fsynced),
which returns once that many replicas have acknowledged everything this connection
wrote, or at the timeout with how many did. Fewer than asked raises `NotReplicated`:
the write stands on the master (nothing is undone, nothing half-written) but is not
acknowledged; the API answers 503 `not_replicated`, and a retry with the same
idempotency key answers the first result once the replicas confirm it.

A retry that finds its key already used wrote nothing, so a WAIT would not cover the
first write (WAIT waits for the connection's own last write). `confirm` therefore first
writes the stored result again, unchanged (`scripts.CONFIRM`): a write replicated after
it, so once the replicas acknowledge it they hold the first write too.

On a cluster the script and the WAIT go to the master of the log's slot through that
node's own connection pool (redis-py's cluster client would send them on two connections);
a MOVED or ASK (the slot moved, nothing ran) is followed as redis-py's client would. The
append's follow-up writes that live on other masters (deadlines, players' game sets and
feeds, the public log's leaves) go to each master with a WAIT of their own (`spread`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import redis
from redis.cluster import RedisCluster
from redis.exceptions import AskError, ClusterDownError, MovedError, NoScriptError, TryAgainError

from events import round_trip

REDIRECTS = 5  # MOVED/ASK/TRYAGAIN followed before giving up (a cluster in a failover)


@dataclass(frozen=True)
class Sync:
    """How many replicas must have an append before it is answered (0: none, no WAIT),
    whether in their AOF (WAITAOF) or in memory (WAIT), and how long to wait (ms)."""

    replicas: int = 0
    aof: bool = False
    timeout_ms: int = 1000

    def __bool__(self) -> bool:
        return self.replicas > 0

    def commands(self) -> list[tuple[Any, ...]]:
        """The WAIT to send after a write; with `aof` a WAIT then a WAITAOF (no local
        fsync asked: that is `appendfsync`'s), each with half the timeout. A WAITAOF
        alone waits about a second (measured, Valkey 9.1): the replica's first ack after
        the write comes before its fsync, and the next only with its once-a-second
        report; a WAIT first makes the master ask again when the WAITAOF blocks, and the
        replica, fsynced by then, answers in a millisecond or two."""
        if self.aof:
            half = max(1, self.timeout_ms // 2)
            return [("WAIT", self.replicas, half), ("WAITAOF", 0, self.replicas, half)]
        return [("WAIT", self.replicas, self.timeout_ms)]

    def check(self, reply: Any) -> None:
        """Raise NotReplicated unless the last WAIT's `reply` counts enough replicas."""
        if isinstance(reply, Exception):
            raise reply
        confirmed = int(reply[1]) if self.aof else int(reply)
        if confirmed < self.replicas:
            raise NotReplicated(self, confirmed)


class NotReplicated(Exception):
    """The write is on the master, but fewer replicas than asked confirmed it in time.
    `key` is the client's Idempotency-Key, when the API knows it (for the answer)."""

    def __init__(self, sync: Sync, confirmed: int):
        what = "in their AOF" if sync.aof else "it"
        super().__init__(
            f"recorded on the master, but {confirmed} of the {sync.replicas} replicas "
            f"required confirmed {what} within {sync.timeout_ms} ms"
        )
        self.wanted, self.confirmed, self.timeout_ms = sync.replicas, confirmed, sync.timeout_ms
        self.key: str | None = None


def send(
    client: Any, script: Any, keys: list[Any], args: list[Any], sync: Sync
) -> tuple[Any, NotReplicated | None]:
    """Run the registered `script` with `keys` and `args` and then `sync`'s WAIT on one
    connection, in one round trip (to the master of `keys[0]`'s slot on a cluster); return
    the script's reply and, if too few replicas confirmed, the NotReplicated to raise once
    the caller has done what follows the write (it stands on the master)."""
    evalsha = ("EVALSHA", script.sha, len(keys), *keys, *args)
    waits = sync.commands()
    replies = _on_owner(client, keys[0], script.script, [evalsha, *waits])
    reply, waited = replies[-1 - len(waits)], replies[-1]
    if isinstance(reply, Exception):
        raise reply
    try:
        sync.check(waited)
    except NotReplicated as e:
        return reply, e
    return reply, None


def _on_owner(client: Any, key: str, text: str, commands: list[tuple[Any, ...]]) -> list[Any]:
    """Send `commands` (the first one a script that must run once) in one write to the
    server holding `key`; load the script there first if it is unknown (NOSCRIPT: nothing
    ran), and on a cluster follow MOVED, ASK and TRYAGAIN (nothing ran either)."""
    if not isinstance(client, RedisCluster):
        replies = round_trip.call(client, commands)
        if isinstance(replies[0], NoScriptError):
            client.script_load(text)
            replies = round_trip.call(client, commands)
        return replies
    node, asking = client.get_node_from_key(key), False
    for _ in range(REDIRECTS):
        conn = client.get_redis_connection(node)
        sent = [("ASKING",), *commands] if asking else commands
        try:
            replies = round_trip.call(conn, sent)
        except (redis.ConnectionError, redis.TimeoutError):
            _rediscover(client)  # as redis-py's cluster client does on a lost node
            raise
        first, asking = replies[len(sent) - len(commands)], False
        if isinstance(first, NoScriptError):
            conn.script_load(text)
        elif isinstance(first, MovedError):
            _rediscover(client)
            node = client.get_node_from_key(key)
        elif isinstance(first, AskError):
            asked = client.get_node(host=first.host, port=first.port)
            node, asking = asked or client.get_node_from_key(key), asked is not None
        elif isinstance(first, (TryAgainError, ClusterDownError)):
            time.sleep(0.05)
            _rediscover(client)
            node = client.get_node_from_key(key)
        else:
            return replies[len(sent) - len(commands) :]
    raise ClusterDownError(f"the slot of {key!r} kept moving")


def spread(
    client: RedisCluster,
    keyed: list[tuple[str, tuple[Any, ...]]],
    texts: dict[str, str],
    sync: Sync,
) -> NotReplicated | None:
    """Send commands that each touch one key (`keyed`: (key, command)) to the masters of
    their keys' slots, one write per master with the WAIT after them (a cluster's
    follow-up writes of an append); return the first shortfall of replicas, if any.
    A command refused with MOVED, ASK or TRYAGAIN ran nowhere and is sent again where the
    refreshed slot map says; one refused with NOSCRIPT (`texts`: script text by digest) is
    sent again once the script is loaded there."""
    shortfall, todo = None, keyed
    for _ in range(REDIRECTS):
        groups: dict[str, tuple[Any, list[tuple[str, tuple[Any, ...]]]]] = {}
        for key, command in todo:
            node = client.get_node_from_key(key)
            groups.setdefault(node.name, (node, []))[1].append((key, command))
        todo, moved = [], False
        for node, items in groups.values():
            conn = client.get_redis_connection(node)
            try:
                replies = round_trip.call(conn, [c for _, c in items] + sync.commands())
            except (redis.ConnectionError, redis.TimeoutError):
                _rediscover(client)
                raise
            ran = False
            for (key, command), reply in zip(items, replies, strict=False):
                if isinstance(reply, NoScriptError):
                    conn.script_load(texts[command[1]])
                    todo.append((key, command))
                elif isinstance(reply, (MovedError, AskError, TryAgainError, ClusterDownError)):
                    moved = True
                    todo.append((key, command))
                elif isinstance(reply, Exception):
                    raise reply
                else:
                    ran = True
            if ran and shortfall is None:
                try:
                    sync.check(replies[-1])
                except NotReplicated as e:
                    shortfall = e
        if not todo:
            return shortfall
        if moved:
            time.sleep(0.05)
            _rediscover(client)
    raise ClusterDownError("the follow-up writes' slots kept moving")


def _rediscover(client: RedisCluster) -> None:
    """Have the cluster client read the slots' owners again (after a failover)."""
    try:
        client.nodes_manager.initialize()
    except redis.RedisError:
        pass  # the next command tries again

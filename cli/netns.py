"""Separate hosts on one Linux machine: one network namespace per host, each with its own
address on a bridge that the root namespace is on too (so a test or a benchmark reaches
every host, and HAProxy, from outside).

Names are derived from the lab's name alone (`mf-<lab>-<host>` namespaces, bridge
`mfbr-<lab>`, veth `v<lab><n>`), so `destroy` removes everything of a lab even when the
process that made it is gone. Needs root and `ip` (iproute2); `unavailable()` says why not.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from dataclasses import dataclass, field


class NetnsError(RuntimeError):
    """An `ip` command failed."""


def ip(*args: str, check: bool = True) -> str:
    """Run `ip ARGS`; return its output (raise NetnsError on failure when `check`)."""
    res = subprocess.run(["ip", *args], capture_output=True, text=True)
    if check and res.returncode != 0:
        raise NetnsError(f"ip {' '.join(args)}: {res.stderr.strip()}")
    return res.stdout


def unavailable() -> str | None:
    """Return why network namespaces cannot be made here (None when they can)."""
    if shutil.which("ip") is None:
        return "the `ip` command (iproute2) is not installed"
    if os.geteuid() != 0:
        return "network namespaces need root"
    probe = f"mfprobe{os.getpid()}"
    try:
        ip("netns", "add", probe)
    except NetnsError as e:
        return f"network namespaces are not allowed here ({e})"
    ip("netns", "del", probe, check=False)
    return None


@dataclass
class Network:
    """The lab's bridge `<prefix>.1/24` and its hosts `<prefix>.<10 + n>`."""

    name: str  # short: interface names hold 15 characters
    prefix: str = "10.213.1"  # the /24 the hosts live on
    hosts: dict[str, str] = field(default_factory=dict)  # host -> address

    def __post_init__(self) -> None:
        if len(self.name) > 8 or not self.name.isalnum():
            raise ValueError("a lab's name is 1-8 letters or digits")

    @property
    def bridge(self) -> str:
        return f"mfbr-{self.name}"

    @property
    def gateway(self) -> str:
        """The root namespace's address on the bridge."""
        return f"{self.prefix}.1"

    def namespace(self, host: str) -> str:
        return f"mf-{self.name}-{host}"

    def _veth(self, host: str) -> str:
        return f"v{self.name}{list(self.hosts).index(host)}"

    def create(self, hosts: list[str]) -> None:
        """Make the bridge and one namespace per host, each with its address and loopback."""
        ip("link", "add", self.bridge, "type", "bridge")
        ip("addr", "add", f"{self.gateway}/24", "dev", self.bridge)
        ip("link", "set", self.bridge, "up")
        for n, host in enumerate(hosts):
            self.hosts[host] = f"{self.prefix}.{10 + n}"
            ns, outer, inner = self.namespace(host), self._veth(host), f"p{self.name}{n}"
            ip("netns", "add", ns)
            ip("link", "add", outer, "type", "veth", "peer", "name", inner)
            ip("link", "set", outer, "master", self.bridge, "up")
            ip("link", "set", inner, "netns", ns)
            ip("-n", ns, "link", "set", inner, "name", "eth0")
            ip("-n", ns, "addr", "add", f"{self.hosts[host]}/24", "dev", "eth0")
            ip("-n", ns, "link", "set", "eth0", "up")
            ip("-n", ns, "link", "set", "lo", "up")

    def run(self, host: str) -> list[str]:
        """The argv prefix that runs a command on `host` (the same pid: `ip` execs it)."""
        return ["ip", "netns", "exec", self.namespace(host)]

    def cut(self, host: str) -> None:
        """Take `host` off the network: its link leaves the bridge, so its packets go
        nowhere and nobody's reach it (no reset: connections hang, as in a real cut)."""
        ip("link", "set", self._veth(host), "nomaster")

    def heal(self, host: str) -> None:
        """Put `host` back on the bridge."""
        ip("link", "set", self._veth(host), "master", self.bridge)

    def destroy(self) -> None:
        """Kill whatever still runs in the lab's namespaces, delete them and the bridge."""
        ours = [n.split()[0] for n in ip("netns", "list", check=False).splitlines()]
        ours = [n for n in ours if n.startswith(f"mf-{self.name}-")]
        for ns in ours:
            for pid in ip("netns", "pids", ns, check=False).split():
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (ProcessLookupError, ValueError):
                    pass
        for ns in ours:
            ip("netns", "del", ns, check=False)  # its end of each veth pair goes with it
        ip("link", "del", self.bridge, check=False)
        for n in range(64):  # a root end left behind by a create that failed half-way
            if os.path.exists(f"/sys/class/net/v{self.name}{n}"):
                ip("link", "del", f"v{self.name}{n}", check=False)

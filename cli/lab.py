"""A deployment over separate hosts on this machine, for fault tests and benchmarks:

    python -m cli.lab up [--name lab] [--data /tmp/marketfold-lab] [--subnet 10.213.1]
    python -m cli.lab status
    python -m cli.lab down

Each host is a Linux network namespace with its own address on one bridge (cli.netns),
and runs one program:

- `m1` `m2` `m3`, `r1` `r2` `r3`: the store, a Valkey Cluster of three masters, each
  with its replica (`rN` of `mN`; cli.lab_valkey);
- `q1`, `q2`: the queues (RQ), a Valkey and its replica;
- `s1` `s2` `s3`: three sentinels watching the queues' master (quorum 2);
- `api1`, `api2`: the API under gunicorn, as `marketfold serve` runs it;
- `lb`: HAProxy (cli.haproxy) on port 8000 over both API hosts: the URL `up` prints;
- `w1`, `w2`: `marketfold worker`;
- `wit1`, `wit2`: `marketfold witness`, each with its own key, cosigning the checkpoints
  it reads through HAProxy (the API hosts accept their cosignatures: `WITNESS_KEYS`).

`up` starts everything in the background and returns; `down` kills every process,
removes the namespaces, the bridge and the data. Needs root, iproute2 and HAProxy
(`apt-get install haproxy`). The tests (tests/lab/) and bench/reliability/lab.py drive a `Lab` from
Python: `kill`, `start`, `cut` and `heal` one host, `restart` all of them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import requests

from cli import haproxy, lab_hosts, lab_valkey
from cli.lab_addresses import Addresses
from cli.lab_hosts import (
    APIS,
    HOSTS,
    MASTERS,
    QUEUES,
    REPLICAS,
    ROOT,
    SENTINELS,
    WITNESSES,
    WORKERS,
)
from cli.netns import Network, ip, unavailable


class LabUnavailable(RuntimeError):
    """This machine cannot run the lab (no root, no namespaces, no HAProxy)."""


def why_not() -> str | None:
    """Return why the lab cannot run here (None if it can)."""
    if haproxy.binary() is None:
        return "HAProxy is not installed (apt-get install haproxy)"
    return unavailable()


@dataclass
class Lab(Addresses):
    name: str = "lab"
    data: Path = Path("/tmp/marketfold-lab")
    prefix: str = "10.213.1"
    api_processes: int = 1  # gunicorn processes per API host
    env: dict[str, str] = field(default_factory=dict)  # more settings for the API and workers
    net: Network = field(init=False)
    procs: dict[str, subprocess.Popen | int] = field(default_factory=dict)
    vkeys: dict[str, str] = field(default_factory=dict)  # each witness's verifier key

    def __post_init__(self) -> None:
        self.data = Path(self.data).resolve()
        self.net = Network(self.name, self.prefix)

    # -- the whole lab -------------------------------------------------------------
    def up(self) -> Lab:
        """Make the hosts and start everything; return when HAProxy serves the API."""
        reason = why_not()
        if reason:
            raise LabUnavailable(reason)
        self.down()
        if self.data.exists() and any(self.data.iterdir()):
            raise RuntimeError(f"{self.data} holds files that are not a lab's: choose --data")
        self.data.mkdir(parents=True, exist_ok=True)
        self._save()
        try:
            self.net.create(HOSTS)
            self._save()
            for host in MASTERS + REPLICAS:
                self.start(host)
            self.start("q1")
            self.start("q2")
            for host in self.store_nodes() + [self.addr(h) for h in QUEUES]:
                lab_valkey.wait_ping(host)
            lab_valkey.form_cluster(
                [self.addr(h) for h in MASTERS], [self.addr(h) for h in REPLICAS]
            )
            for host in SENTINELS:
                self.start(host)
            lab_valkey.wait_sentinels([self.addr(h) for h in SENTINELS], replicas=1)
            for host in [*APIS, *WORKERS]:
                self.start(host)
            self.wait_serving(balancer=False)
            self.start("lb")
            self.wait_serving()
            for host in WITNESSES:
                self.start(host)
        except BaseException:
            print(self.tails(), file=sys.stderr)
            self.down()
            raise
        return self

    def tails(self, lines: int = 5) -> str:
        """The last lines of every host's logs (to say why a start failed)."""
        out = []
        for log in sorted(self.data.glob("*/*.log")):
            text = log.read_text(errors="replace").splitlines()[-lines:]
            out += [f"--- {log.relative_to(self.data)}", *text]
        return "\n".join(out)

    def down(self) -> None:
        """Kill every process of the lab, remove its namespaces, bridge and data."""
        for host, proc in list(self.procs.items()):
            if isinstance(proc, subprocess.Popen):  # (a pid from a file may be reused:
                self.kill(host)  # what runs in the lab's namespaces is killed below)
        self.procs.clear()
        self.net.destroy()
        if (self.data / "lab.json").exists():
            shutil.rmtree(self.data, ignore_errors=True)

    def restart(self) -> None:
        """kill -9 every process at once, as a power cut would, then start them all again
        on their data; return when the service answers."""
        for host in list(self.procs):
            self.kill(host)
        for host in MASTERS + REPLICAS:
            self.start(host)
        for host in SENTINELS:
            self.start(host)
        for address in self.store_nodes():
            lab_valkey.wait_ping(address)
        for host in SENTINELS:  # they say which queue node is master now (from their files)
            lab_valkey.wait_ping(self.addr(host), lab_valkey.SENTINEL_PORT)
        for host in QUEUES:
            self.start(host)
        lab_valkey.wait_cluster(self.store_nodes(), [], timeout=60)
        for host in [*APIS, *WORKERS]:
            self.start(host)
        self.wait_serving(balancer=False)
        self.start("lb")
        self.wait_serving()
        for host in WITNESSES:
            self.start(host)

    def wait_serving(self, timeout: float = 60.0, balancer: bool = True) -> None:
        """Wait until both API hosts (and HAProxy) answer /healthz with 200."""
        ends = time.monotonic() + timeout
        for url in [*(self.api_url(h) for h in APIS), *([self.url] if balancer else [])]:
            while True:
                try:
                    if requests.get(url + "/healthz", timeout=2).status_code == 200:
                        break
                except requests.RequestException:
                    pass
                if time.monotonic() > ends:
                    raise RuntimeError(f"{url} did not come up; logs in {self.data}")
                time.sleep(0.1)

    # -- one host --------------------------------------------------------------------
    def start(self, host: str) -> None:
        """Start `host`'s program (again, on its data)."""
        data = self.data / host
        data.mkdir(parents=True, exist_ok=True)
        argv, env = lab_hosts.program(self, host, data), dict(os.environ)
        if host in APIS or host in WORKERS:
            env.update(lab_hosts.service_env(self))
        if host in WITNESSES:
            env["PYTHONUNBUFFERED"] = "1"  # each round's verdict in its log as it is made
        log = open(data / "out.log", "ab")
        self.procs[host] = subprocess.Popen(
            self.net.run(host) + argv,
            env=env,
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        self._save()

    def kill(self, host: str) -> None:
        """kill -9 `host`'s program and everything it started (gunicorn's workers, RQ's
        scheduler)."""
        proc = self.procs.pop(host, None)
        if proc is None:
            return
        pid = proc if isinstance(proc, int) else proc.pid
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if isinstance(proc, subprocess.Popen):
            proc.wait()
        self._save()

    def alive(self, host: str) -> bool:
        """Whether `host`'s program runs (for a lab loaded from its file: whether anything
        runs in the host's namespace)."""
        proc = self.procs.get(host)
        if isinstance(proc, subprocess.Popen):
            return proc.poll() is None
        return bool(ip("netns", "pids", self.net.namespace(host), check=False).split())

    def cut(self, host: str) -> None:
        """Take `host` off the network (its program keeps running)."""
        self.net.cut(host)

    def heal(self, host: str) -> None:
        self.net.heal(host)

    def _save(self) -> None:
        pids = {h: p if isinstance(p, int) else p.pid for h, p in self.procs.items()}
        state = {"name": self.name, "prefix": self.prefix, "hosts": self.net.hosts, "pids": pids}
        (self.data / "lab.json").write_text(json.dumps(state, indent=1))

    @classmethod
    def load(cls, data: Path) -> Lab:
        """The lab whose state is saved under `data` (for `status` and `down`)."""
        state = json.loads((Path(data) / "lab.json").read_text())
        lab = cls(state["name"], Path(data), state["prefix"])
        lab.net.hosts = state["hosts"]
        lab.procs = {h: int(p) for h, p in state["pids"].items()}
        return lab

    def status(self) -> list[str]:
        """One line per host: its address, program, and whether it runs (and its role)."""
        lines = [f"URL {self.url}  (HAProxy on lb; queues' master: {self.queue_master()})"]
        for host in HOSTS:
            address = self.addr(host)
            note = "running" if self.alive(host) else "DOWN"
            if host in MASTERS + REPLICAS + QUEUES:
                note += f", {lab_valkey.role(address)}"
            lines.append(f"{host:5} {address:15} {note}")
        return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cli.lab", description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=["up", "down", "status"])
    ap.add_argument("--name", default="lab", help="1-8 letters or digits (names the hosts)")
    ap.add_argument("--data", default="/tmp/marketfold-lab", help="every host's data and logs")
    ap.add_argument("--subnet", default="10.213.1", help="the hosts' /24 (its first 3 bytes)")
    ap.add_argument("--api-processes", type=int, default=1, help="gunicorn processes per host")
    args = ap.parse_args(argv)
    data = Path(args.data)
    if args.command == "up":
        lab = Lab(args.name, data, args.subnet, args.api_processes)
        try:
            lab.up()
        except LabUnavailable as e:
            print(f"the lab cannot run here: {e}", file=sys.stderr)
            return 2
        print("\n".join(lab.status()))
        print(f"\nmarketfold is served at {lab.url}  (stop: python -m cli.lab down)")
        return 0
    if not (data / "lab.json").exists():
        if args.command == "down":
            Lab(args.name, data, args.subnet).down()  # whatever a failed `up` left
        print(f"no lab under {data}")
        return 0 if args.command == "down" else 1
    lab = Lab.load(data)
    if args.command == "status":
        print("\n".join(lab.status()))
    else:
        lab.down()
        print("the lab is down: processes killed, namespaces, bridge and data removed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

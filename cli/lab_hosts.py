"""The lab's hosts (cli.lab) and the program each runs: the store's and the queues' Valkey
nodes and sentinels (cli.lab_valkey), the API under gunicorn, HAProxy (cli.haproxy), the
workers, and the witnesses, each with its own key kept in its host's data."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from cli import haproxy, lab_valkey
from cli.serve import gunicorn_argv

if TYPE_CHECKING:
    from cli.lab import Lab

ROOT = Path(__file__).resolve().parent.parent
MASTERS, REPLICAS = ["m1", "m2", "m3"], ["r1", "r2", "r3"]
QUEUES, SENTINELS = ["q1", "q2"], ["s1", "s2", "s3"]
APIS, WORKERS = ["api1", "api2"], ["w1", "w2"]
WITNESSES = ["wit1", "wit2"]
HOSTS = [*MASTERS, *REPLICAS, *QUEUES, *SENTINELS, *APIS, "lb", *WORKERS, *WITNESSES]
WITNESS_EVERY_S = "2"  # seconds between a witness's rounds
API_PORT = 8000
# the lab's clients all come from one address (the bridge's): lift the per-address caps.
# HAProxy forwards each caller's address (`option forwardfor`) and the API hosts believe
# that one proxy (TRUSTED_PROXIES), so behind it per-address limits count callers.
LIFTED = {
    "TRUSTED_PROXIES": "1",
    "RATE_LIMIT_ANON": "10000000/minute",
    "RATE_LIMIT_TOKEN": "10000000/minute",
    "WAITING_GAMES_PER_PLAYER": "10000000",
}


def service_env(lab: Lab) -> dict[str, str]:
    """The settings every API host and worker gets."""
    return {
        **{f"MARKETFOLD_{k}": v for k, v in LIFTED.items()},
        "REDIS_URL": lab.redis_url,
        "RQ_REDIS_URL": lab.queue_url,
        "APPEND_REPLICAS": "1",  # an append is answered once a replica has it
        "SIGNING_KEY_DIR": str(lab.data / "keys"),
        "MARKETFOLD_WITNESS_KEYS": ",".join(witness_vkey(lab, h) for h in WITNESSES),
        "PYTHONPATH": str(ROOT),
        **lab.env,
    }


def witness_vkey(lab: Lab, host: str) -> str:
    """The verifier key of the witness on `host` (its key made on first use, kept in
    the host's data, as the witness's operator would keep it)."""
    if host in lab.vkeys:
        return lab.vkeys[host]
    data = lab.data / host
    data.mkdir(parents=True, exist_ok=True)
    argv = [sys.executable, "-m", "cli", "witness", "--vkey", "--name", f"{host}.{lab.name}"]
    made = subprocess.run(
        [*argv, "--key-file", str(data / "key")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    lab.vkeys[host] = made.stdout.strip()
    return lab.vkeys[host]


def program(lab: Lab, host: str, data: Path) -> list[str]:
    """The command line of `host`'s program."""
    address = lab.addr(host)
    if host in MASTERS + REPLICAS:
        return lab_valkey.cluster_node(data, address)
    if host in QUEUES:
        master = lab.queue_master() or "q1"
        return lab_valkey.queue_node(data, address, lab.addr(master))
    if host in SENTINELS:
        return lab_valkey.sentinel(data, address, lab.addr("q1"))
    if host in APIS:
        return gunicorn_argv(address, API_PORT, lab.api_processes)
    if host in WORKERS:
        return [sys.executable, "-m", "cli", "worker"]
    if host in WITNESSES:
        witness = ["--server", lab.url, "--key-file", str(data / "key")]
        every = ["--state", str(data / "state"), "--interval", WITNESS_EVERY_S]
        return [sys.executable, "-m", "cli", "witness", *witness, *every]
    conf = data / "haproxy.cfg"
    servers = {h: f"{lab.addr(h)}:{API_PORT}" for h in APIS}
    conf.write_text(haproxy.config(address, servers, API_PORT))
    return haproxy.argv(conf)

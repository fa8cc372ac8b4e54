"""Actions/s on one standalone Valkey next to a 3-master Valkey Cluster, in one run.

    python -m bench.storage.cluster [--clients 8] [--games 16] [--rounds 2]

Starts an embedded standalone Valkey and a 3-master cluster (tests.support.cluster, no replicas,
same appendfsync), the API under gunicorn on each (as `marketfold serve`; the cluster's
queues on their own Valkey, `RQ_REDIS_URL`), then plays full Goblin Market games over
HTTP on each in turn, `--rounds` times, with new games each time. On one machine the
cluster shares the cores with everything else, so this measures its overhead (client
routing, three servers instead of one), not the scale-out it gives on several machines.
The CPU per action of the API (gunicorn's processes) and of the store (the standalone
Valkey, or the three masters together) is read from /proc around each run.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from bench.common import cpu_seconds, gunicorn, machine, stop
from bench.moves.actions import measure_http, seat_tables
from cli.embedded import EmbeddedRedis, free_port
from tests.support.cluster import EmbeddedCluster
from tests.support.waiting import wait_up


def run(clients: int, games: int, rounds: int, fsync: str = "always") -> list[str]:
    """Return the table's lines (also printed as they come)."""
    tmp = Path(tempfile.mkdtemp(prefix="mf-cluster-bench-"))
    standalone = EmbeddedRedis(tmp / "one", port=free_port(), appendfsync=fsync).start()
    cluster = EmbeddedCluster(tmp / "cluster", appendfsync=fsync).start()
    queues = EmbeddedRedis(tmp / "queues", port=free_port(), appendfsync=fsync).start()
    procs, bases = [], {}
    try:
        for name, url, env in (
            ("standalone", standalone.url, {}),
            ("3-master cluster", cluster.url, {"RQ_REDIS_URL": queues.url}),
        ):
            port = free_port()
            procs.append(gunicorn("cli.wsgi:app", port, url, **env))
            bases[name] = f"http://127.0.0.1:{port}"
        for base in bases.values():
            wait_up(base + "/healthz")
        stores = {"standalone": [standalone], "3-master cluster": cluster.nodes}
        pids = {
            name: (proc.pid, [n.process.pid for n in stores[name]])
            for name, proc in zip(bases, procs, strict=True)
        }
        rows = [
            f"{clients} clients, {games} Goblin Market games per round, appendfsync {fsync}",
            "| round | store | actions | actions/s | p50 ms | p99 ms | CPU ms per action: "
            "API / store |",
            "| --- | --- | --- | --- | --- | --- | --- |",
        ]
        print("\n".join(rows), flush=True)
        rates: dict[str, list[float]] = {name: [] for name in bases}
        for r in range(1, rounds + 1):
            for name, base in bases.items():
                api, servers = pids[name]
                tables = seat_tables(base, games)  # set up outside the measured run
                before = [cpu_seconds(api), sum(cpu_seconds(p) for p in servers)]
                fig = measure_http(base, clients, games, tables)
                after = [cpu_seconds(api), sum(cpu_seconds(p) for p in servers)]
                pairs = zip(before, after, strict=True)
                per = [(b - a) * 1e3 / max(1, fig.actions) for a, b in pairs]
                rates[name].append(fig.rate)
                rows.append(
                    f"| {r} | {name} | {fig.actions} | {fig.rate:.0f} | {fig.ms(50):.1f} | "
                    f"{fig.ms(99):.1f} | {per[0]:.2f} / {per[1]:.2f} |"
                )
                print(rows[-1], flush=True)
        one, three = (sum(v) / len(v) for v in rates.values())
        rows.append(f"\ncluster / standalone actions/s (mean of rounds): {three / one:.0%}")
        print(rows[-1], flush=True)
        return rows
    finally:
        stop(procs)
        queues.stop()
        cluster.stop()
        standalone.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    m = machine()
    print(f"machine: {m['cores']} cores, {m['cpu']}; Python {m['python']}; {m['date']}")
    t0 = time.monotonic()
    run(args.clients, args.games, args.rounds)
    print(f"(measured in {time.monotonic() - t0:.0f} s)")


if __name__ == "__main__":
    main()

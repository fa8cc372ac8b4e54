"""What waiting for a replica costs an action: WAIT off, WAIT 1, WAITAOF 1, in one run.

    python bench/replicas.py [--clients 8] [--games 16] [--rounds 3]

Starts an embedded Valkey master (appendfsync always, as `marketfold serve`) and one
replica of it (appendfsync always too, so that WAITAOF waits for one fsync, not for
the next second of `everysec`), both on loopback, and the API under gunicorn three
times on that master (as `marketfold serve`): `APPEND_REPLICAS=0` (today's answer, no
wait), `APPEND_REPLICAS=1` (WAIT 1) and `APPEND_REPLICAS=1 APPEND_REPLICA_AOF=true`
(WAITAOF 0 1). Then plays full Goblin Market games over HTTP on each in turn, on new
games each time, `--rounds` times (alternated, so that the machine's drift spreads
over all three), and prints actions/s, the POST's p50 and p99 and the CPU per action of
the API, the master and the replica; the row of each setting is its median round.
On loopback the replica's round trip is tens of microseconds, so this shows the least
the wait costs; across hosts add the network's round trip to every append.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.actions import measure_http, seat_tables  # noqa: E402
from bench.common import cpu_seconds, gunicorn, machine, stop, wait_up  # noqa: E402
from cli.embedded import EmbeddedRedis, free_port  # noqa: E402

MODES = {
    "no wait (APPEND_REPLICAS=0)": {},
    "WAIT 1": {"MARKETFOLD_APPEND_REPLICAS": "1"},
    "WAITAOF 0 1": {"MARKETFOLD_APPEND_REPLICAS": "1", "MARKETFOLD_APPEND_REPLICA_AOF": "true"},
}


def run(clients: int, games: int, rounds: int) -> list[str]:
    """Return the table's lines (also printed as they come)."""
    tmp = Path(tempfile.mkdtemp(prefix="mf-replicas-bench-"))
    master = EmbeddedRedis(tmp / "master", port=free_port(), appendfsync="always").start()
    replica = EmbeddedRedis(
        tmp / "replica", port=free_port(), appendfsync="always", replica_of=master
    )
    procs, bases = [], {}
    try:
        replica.start().in_sync()
        for name, env in MODES.items():
            port = free_port()
            # the replica's answer must come within the wait: 1 s, far above loopback's
            more = {"MARKETFOLD_APPEND_REPLICA_TIMEOUT_MS": "1000", **env}
            procs.append(gunicorn("cli.wsgi:app", port, master.url, **more))
            bases[name] = f"http://127.0.0.1:{port}"
        for base in bases.values():
            wait_up(base + "/healthz")
        pids = {
            "api": {name: proc.pid for name, proc in zip(bases, procs, strict=True)},
            "master": master.process.pid,
            "replica": replica.process.pid,
        }
        runs: dict[str, list[tuple]] = {name: [] for name in bases}
        for r in range(1, rounds + 1):
            for name, base in bases.items():
                tables = seat_tables(base, games)
                before = _cpu(pids, name)
                fig = measure_http(base, clients, games, tables)
                after = _cpu(pids, name)
                used = {k: (after[k] - before[k]) * 1e6 / max(1, fig.actions) for k in before}
                runs[name].append((fig, used))
                print(
                    f"round {r} {name}: {fig.actions} actions, {fig.rate:.0f}/s, "
                    f"p50 {fig.ms(50):.2f} ms, p99 {fig.ms(99):.2f} ms",
                    flush=True,
                )
        return table(runs, clients, games, rounds)
    finally:
        stop(procs)
        replica.stop()
        master.stop()


def _cpu(pids: dict, mode: str) -> dict[str, float]:
    return {
        "api": cpu_seconds(pids["api"][mode]),
        "master": cpu_seconds(pids["master"]),
        "replica": cpu_seconds(pids["replica"]),
    }


def table(runs: dict[str, list[tuple]], clients: int, games: int, rounds: int) -> list[str]:
    """The median round of each setting (by actions/s), every round's rate, and the cost
    against no wait."""
    rows = [
        f"{clients} clients, {games} Goblin Market games per round, {rounds} rounds "
        "alternated; master and replica appendfsync always, on loopback",
        "",
        "| setting | actions | actions/s | p50 ms | p99 ms | CPU µs per action: API / "
        "master / replica | actions/s per round |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    medians = {}
    for name, done in runs.items():
        ordered = sorted(done, key=lambda pair: pair[0].rate)
        fig, used = medians[name] = ordered[len(ordered) // 2]
        every = ", ".join(f"{f.rate:.0f}" for f, _ in done)
        rows.append(
            f"| {name} | {fig.actions} | {fig.rate:.0f} | {fig.ms(50):.2f} | "
            f"{fig.ms(99):.2f} | {used['api']:.0f} / {used['master']:.0f} / "
            f"{used['replica']:.0f} | {every} |"
        )
    base, _ = next(iter(medians.values()))
    rows.append("")
    for name, (fig, _) in list(medians.items())[1:]:
        rows.append(
            f"- {name}: {fig.rate / base.rate:.0%} of the actions/s without a wait; the POST's "
            f"p50 {fig.ms(50) - base.ms(50):+.2f} ms, p99 {fig.ms(99) - base.ms(99):+.2f} ms"
        )
    print("\n".join(rows), flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    m = machine()
    print(f"machine: {m['cores']} cores, {m['cpu']}; Python {m['python']}; {m['date']}")
    t0 = time.monotonic()
    run(args.clients, args.games, args.rounds)
    print(f"(measured in {time.monotonic() - t0:.0f} s)")


if __name__ == "__main__":
    main()

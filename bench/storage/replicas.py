"""What waiting for a replica costs an action: WAIT off, WAIT 1, WAITAOF 1, in one run.

    python -m bench.storage.replicas [--clients 8] [--games 16] [--rounds 3]

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

First, without HTTP: `--appends` appends of one envelope each to a log, one after the
other through the recorder (events.recorder, the append's script and its wait in one
write), in blocks alternating the three settings: the latency of an append itself, and
the master's and the replica's CPU per append. On a loaded machine these say more than
the HTTP figures, whose noise is larger than the wait.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from bench.common import cpu_seconds, gunicorn, machine, percentile, stop
from bench.moves.actions import measure_http, seat_tables
from cli.embedded import EmbeddedRedis, free_port
from events.recorder import RedisRecorder
from events.recording import Append, Log
from events.replication import Sync
from tests.support.waiting import wait_up

SYNCS = {
    "no wait (APPEND_REPLICAS=0)": Sync(),
    "WAIT 1": Sync(1, False, 1000),
    "WAITAOF 0 1": Sync(1, True, 1000),
}

MODES = {
    "no wait (APPEND_REPLICAS=0)": {},
    "WAIT 1": {"MARKETFOLD_APPEND_REPLICAS": "1"},
    "WAITAOF 0 1": {"MARKETFOLD_APPEND_REPLICAS": "1", "MARKETFOLD_APPEND_REPLICA_AOF": "true"},
}


def appends(master: EmbeddedRedis, replica: EmbeddedRedis, count: int) -> list[str]:
    """The latency and CPU of `count` appends per setting, in alternated blocks."""
    import redis

    client = redis.Redis.from_url(master.url)
    syncs = _modes(SYNCS, replica.appendfsync)
    recorders = {name: RedisRecorder(client, sync) for name, sync in syncs.items()}
    took: dict[str, list[float]] = {name: [] for name in syncs}
    used = {name: [0.0, 0.0] for name in syncs}
    version = {name: 0 for name in syncs}
    block = max(1, count // 5)
    for _ in range(5):
        for name, recorder in recorders.items():
            log = Log.game(f"bench-{name.split()[0]}")
            cpu0 = cpu_seconds(master.process.pid), cpu_seconds(replica.process.pid)
            for _ in range(block):
                envelope = {"seq": version[name] + 1, "type": "bench.Noted", "data": {}}
                t0 = time.perf_counter()
                recorder.append(Append(log, [envelope], expected=version[name]))
                took[name].append(time.perf_counter() - t0)
                version[name] += 1
            used[name][0] += cpu_seconds(master.process.pid) - cpu0[0]
            used[name][1] += cpu_seconds(replica.process.pid) - cpu0[1]
    rows = [
        f"{5 * block} appends per setting, one at a time, in alternated blocks of {block}; "
        f"master appendfsync always, replica {replica.appendfsync}",
        "",
        "| setting | append p50 ms | p99 ms | CPU µs per append: master / replica |",
        "| --- | --- | --- | --- |",
    ]
    for name in syncs:
        n = len(took[name])
        rows.append(
            f"| {name} | {percentile(took[name], 50) * 1e3:.2f} | "
            f"{percentile(took[name], 99) * 1e3:.2f} | {used[name][0] * 1e6 / n:.0f} / "
            f"{used[name][1] * 1e6 / n:.0f} |"
        )
    print("\n".join(rows), flush=True)
    return rows


def _modes(modes: dict, replica_fsync: str) -> dict:
    """The settings to measure: WAITAOF only with a replica that fsyncs every write (with
    `everysec` its fsync comes up to a second later, past the wait: 503 not_replicated)."""
    return {k: v for k, v in modes.items() if replica_fsync == "always" or "AOF" not in k}


def run(
    clients: int, games: int, rounds: int, count: int = 1000, replica_fsync: str = "always"
) -> list[str]:
    """Return the tables' lines (also printed as they come)."""
    tmp = Path(tempfile.mkdtemp(prefix="mf-replicas-bench-"))
    master = EmbeddedRedis(tmp / "master", port=free_port(), appendfsync="always").start()
    replica = EmbeddedRedis(
        tmp / "replica", port=free_port(), appendfsync=replica_fsync, replica_of=master
    )
    procs, bases = [], {}
    try:
        replica.start().in_sync()
        direct = appends(master, replica, count)
        for name, env in _modes(MODES, replica_fsync).items():
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
        for base in bases.values():  # warm each API's processes up, unmeasured
            measure_http(base, clients, max(2, games // 4))
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
        return [*direct, "", *table(runs, clients, games, rounds, replica_fsync)]
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


def table(
    runs: dict[str, list[tuple]], clients: int, games: int, rounds: int, replica_fsync: str
) -> list[str]:
    """The median round of each setting (by actions/s), every round's rate, and the cost
    against no wait."""
    rows = [
        f"{clients} clients, {games} Goblin Market games per round, {rounds} rounds "
        f"alternated; master appendfsync always, replica {replica_fsync}, on loopback",
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
    ap.add_argument("--appends", type=int, default=1000)
    ap.add_argument("--replica-fsync", default="always", choices=["always", "everysec"])
    args = ap.parse_args()
    m = machine()
    print(f"machine: {m['cores']} cores, {m['cpu']}; Python {m['python']}; {m['date']}")
    t0 = time.monotonic()
    run(args.clients, args.games, args.rounds, args.appends, args.replica_fsync)
    print(f"(measured in {time.monotonic() - t0:.0f} s)")


if __name__ == "__main__":
    main()

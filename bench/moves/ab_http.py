"""A/B over HTTP: the API served as `marketfold serve` serves it, next to the same API with
one part switched off (bench/moves/ab_app.py), alternated on the same Redis.

    python -m bench.moves.ab_http PART[,PART...] [--clients 8] [--games 16] [--rounds 3]
        [--one-call]
    python -m bench.moves.ab_http --b-root CHECKOUT [--b-app api.wsgi:app] ...
    python -m bench.moves.ab_http --b-env NAME=VALUE [--b-env ...] ...
    python -m bench.moves.ab_http --b-processes 1 ...

With --b-root, B is another checkout's API (e.g. `git worktree add --detach /tmp/old REV`:
the code of an earlier revision, on this one's installed packages) instead. With --b-env,
B is the same API with more environment variables, e.g. `GUNICORN_CMD_ARGS=--http-parser=python`
(gunicorn's own HTTP parser, where its C parser gunicorn_h1c is installed). With
--b-processes, B is the same API under that many gunicorn processes (A: two, as served).

Each round plays new games on both (bench/moves/actions.py), A then B; prints each round's
actions/s, and the median CPU per action of each API process (its gunicorn's master and
workers) and of Valkey: what the part costs where it runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from pathlib import Path

from bench.common import cpu_seconds, gunicorn, own_cpu_seconds, settle, stop
from bench.moves.actions import measure_http, seat_tables
from cli.embedded import EmbeddedRedis, free_port
from tests.support.waiting import wait_up


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "off", nargs="?", default="", help="parts off on B (bench/moves/action_cpu.PARTS)"
    )
    ap.add_argument("--b-root", help="B runs this checkout's API instead")
    ap.add_argument("--b-app", default="cli.wsgi:app", help="B's WSGI app (with --b-root)")
    ap.add_argument(
        "--b-env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="B runs this API with this environment variable set",
    )
    ap.add_argument("--b-processes", type=int, help="B runs this many gunicorn processes")
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--one-call", action="store_true")
    args = ap.parse_args()
    server = EmbeddedRedis(tempfile.mkdtemp(prefix="mf-ab-"), port=free_port()).start()
    ports = {"A": free_port(), "B": free_port()}
    b_env = dict(pair.split("=", 1) for pair in args.b_env)
    if args.b_root:
        b_proc = gunicorn(args.b_app, ports["B"], server.url, root=Path(args.b_root), **b_env)
    elif b_env or args.b_processes:
        b_proc = gunicorn(
            "cli.wsgi:app", ports["B"], server.url, workers=args.b_processes or 2, **b_env
        )
    else:
        b_proc = gunicorn("bench.moves.ab_app:app", ports["B"], server.url, BENCH_OFF=args.off)
    procs = {"A": gunicorn("cli.wsgi:app", ports["A"], server.url), "B": b_proc}
    bases = {k: f"http://127.0.0.1:{p}" for k, p in ports.items()}
    seen: dict[str, list] = {"A": [], "B": []}
    b = f"{args.b_root} ({args.b_app})" if args.b_root else f"{args.off} off" if args.off else "A"
    b += "".join(f", with {pair}" for pair in args.b_env)
    b += f", {args.b_processes} gunicorn processes" if args.b_processes else ""
    print(f"B: {b}; load average {os.getloadavg()}", flush=True)
    try:
        for base in bases.values():
            wait_up(base + "/healthz")
        for proc in procs.values():
            settle(proc.pid)
        for r in range(args.rounds):
            for side in ("A", "B"):
                base = bases[side]
                tables = seat_tables(base, args.games)
                before = (
                    cpu_seconds(procs[side].pid),
                    cpu_seconds(server.process.pid),
                    own_cpu_seconds(),
                )
                fig = measure_http(base, args.clients, args.games, tables, args.one_call)
                api = (cpu_seconds(procs[side].pid) - before[0]) * 1e6 / fig.actions
                valkey = (cpu_seconds(server.process.pid) - before[1]) * 1e6 / fig.actions
                client = (own_cpu_seconds() - before[2]) * 1e6 / fig.actions
                seen[side].append((fig.rate, api, valkey, client))
                print(
                    f"round {r} {side}: {fig.rate:.0f} actions/s, p50 {fig.ms(50):.1f} ms, "
                    f"p99 {fig.ms(99):.1f} ms; API {api:.0f} µs, Valkey {valkey:.0f} µs, "
                    f"client {client:.0f} µs per action",
                    flush=True,
                )
        for side in ("A", "B"):
            rate, api, valkey, client = (
                statistics.median(x[i] for x in seen[side]) for i in range(4)
            )
            print(
                f"{side}: median {rate:.0f} actions/s, API {api:.0f} µs, Valkey {valkey:.0f} µs, "
                f"client {client:.0f} µs"
            )
        ratios = [b[0] / a[0] for a, b in zip(seen["A"], seen["B"], strict=True)]
        print("B / A per round: " + ", ".join(f"{x:.0%}" for x in ratios))
        print(f"load average {os.getloadavg()}")
    finally:
        stop(list(procs.values()))
        server.stop()


if __name__ == "__main__":
    main()

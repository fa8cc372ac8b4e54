"""Simultaneous phases and deadlines, measured through the API with real worker processes.

    python -m bench.jobs.phases [--phases 40] [--deadlines 30]
    python -m bench.jobs.phases --load [--games 200] [--seconds 60] [--workers 1]

Prints (1) the time from the last sealed bid's answer until the reveal is visible in the
game's event feed (Sorcerous Futures closed auctions, 4 seats), and (2) how late missed
deadlines fire (the `at` of `game.DecisionTimedOut` minus the deadline the API showed),
with one and with two workers. With `--load`: `--games` games played at once on 2-5 s
deadlines (bench/jobs/phase_load.py), reveal p50/p99 and default lateness p50/p99 under that
load next to the same figures with a handful of games (idle). It starts its own Redis,
API and workers.
"""

from __future__ import annotations

import sys

if __name__ == "__main__" and "--load" in sys.argv:  # the load's players are greenlets
    from gevent import monkey

    monkey.patch_all()

import argparse
import os
import signal
import subprocess
import tempfile
import time

import requests

from bench.common import gunicorn, percentile, start_worker, stop
from cli.embedded import EmbeddedRedis, free_port
from events.codec import parse_time
from tests.support.waiting import wait_up


def under_load(base: str, redis_url: str, args: argparse.Namespace) -> None:
    """Play `--games` games at once for `--seconds`, after a handful for the idle figures;
    print both rows."""
    from bench.jobs import phase_load

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(phase_load.HEADER)
    for name, games in (("idle", args.idle_games), ("load", args.games)):
        load = phase_load.Load(base, games, args.seconds, args.miss)
        figures = phase_load.measure(redis_url, load.run())
        print(figures.row(name), flush=True)
        if figures.refused:
            print(f"  (answers other than 2xx: {figures.refused})")
        time.sleep(6)  # the last defaults and reveals land
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("targets under load: reveal p99 < 1 s, default lateness p99 < 2 s")


def seated_game(s: requests.Session, base: str, ruleset: str, n: int, **body) -> tuple:
    people = [s.post(f"{base}/v1/players", json={"name": f"b{i}"}).json() for i in range(n)]
    auth = [{"Authorization": f"Bearer {p['token']}"} for p in people]
    gid = s.post(
        f"{base}/v1/games", json={"ruleset": ruleset, "players": n, **body}, headers=auth[0]
    ).json()["id"]
    for h in auth:
        s.post(f"{base}/v1/games/{gid}/join", headers=h)
    seats = {s.get(f"{base}/v1/games/{gid}", headers=h).json()["you"]: h for h in auth}
    return gid, seats


def legal(s, base, gid, headers) -> dict[str, dict]:
    actions = s.get(f"{base}/v1/games/{gid}/legal", headers=headers).json()["actions"]
    return {a["type"]: a for a in actions}


def next_action(options: dict[str, dict]) -> dict:
    """Steer a Sorcerous Futures game towards closed auctions."""
    if "random_crowns" in options:
        return {"type": "random_crowns"}
    if "start_auction" in options:
        return next(c for c in options["start_auction"]["choices"] if c["format"] == "closed")
    return {"type": "pass"} if "pass" in options else options[next(iter(options))]["choices"][0]


def closed_auction_latencies(base: str, phases: int) -> list[float]:
    """Play closed auctions in 4-player games; time the last bid's answer → the reveal."""
    s, out = requests.Session(), []
    while len(out) < phases:
        gid, seats = seated_game(s, base, "sorcerous-futures", 4)
        while len(out) < phases:
            game = s.get(f"{base}/v1/games/{gid}").json()
            if game["status"] != "active":
                break
            owed = game["owed"]
            if not owed:
                time.sleep(0.01)
                continue
            if owed[0]["kind"] != "sealed_bid":
                seat = owed[0]["seat"]
                action = next_action(legal(s, base, gid, seats[seat]))
                s.post(f"{base}/v1/games/{gid}/actions", json=action, headers=seats[seat])
                continue
            for o in owed:
                r = s.post(
                    f"{base}/v1/games/{gid}/actions",
                    json={"type": "sealed_bid", "amount": 0},
                    headers=seats[o["seat"]],
                )
                version = r.json()["version"]
            t0 = time.perf_counter()
            while not s.get(f"{base}/v1/games/{gid}/events?after={version}").json()["events"]:
                time.sleep(0.001)
            out.append(time.perf_counter() - t0)
    return out


def deadline_lateness(base: str, games: int) -> list[float]:
    """Let Goblin Market bids time out (1 s deadlines); return how late each fired."""
    s = requests.Session()
    pending = []
    for _ in range(games):
        gid, _ = seated_game(s, base, "goblin-market", 3, decision_timeout_s=1)
        pending.append((gid, s.get(f"{base}/v1/games/{gid}").json()["owed"][0]["deadline"]))
    late = []
    for gid, deadline in pending:
        while True:
            events = s.get(f"{base}/v1/games/{gid}/events").json()["events"]
            fired = [e for e in events if e["type"] == "game.DecisionTimedOut"]
            if fired:
                late.append((parse_time(fired[0]["at"]) - parse_time(deadline)).total_seconds())
                break
            time.sleep(0.05)
    return late


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--phases", type=int, default=40)
    ap.add_argument("--deadlines", type=int, default=30)
    ap.add_argument("--load", action="store_true", help="many games at once (see above)")
    ap.add_argument("--games", type=int, default=200, help="--load: games played at once")
    ap.add_argument("--idle-games", type=int, default=4, help="--load: games of the idle row")
    ap.add_argument("--seconds", type=float, default=60, help="--load: each row's duration")
    ap.add_argument("--miss", type=float, default=0.1, help="--load: decisions left to time out")
    ap.add_argument("--workers", type=int, default=1, help="--load: worker processes")
    ap.add_argument(
        "--queues",
        choices=["shared", "own"],
        default="own",
        help="queues on their own Redis (appendfsync everysec) as `serve` has them, or the store's",
    )
    args = ap.parse_args()
    server = EmbeddedRedis(tempfile.mkdtemp(prefix="mf-bench-"), port=free_port()).start()
    queues = server  # the queues on the store's Redis, or (--queues own) on one of their own
    if args.queues == "own":
        own = tempfile.mkdtemp(prefix="mf-bench-q-")
        queues = EmbeddedRedis(own, port=free_port(), appendfsync="everysec").start()
    port = free_port()
    procs = [gunicorn("cli.wsgi:app", port, server.url, RQ_REDIS_URL=queues.url)]
    crew: list[subprocess.Popen] = []
    base = f"http://127.0.0.1:{port}"
    try:
        wait_up(base + "/healthz", timeout=90)  # a loaded machine starts slowly
        print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
        if args.load:
            crew += [start_worker(server.url, queues.url) for _ in range(args.workers)]
            print(
                f"workers: {args.workers}; {args.games} games on 2-5 s deadlines; queues on "
                + (
                    "their own Redis (appendfsync everysec)"
                    if args.queues == "own"
                    else "the store's Redis (appendfsync always)"
                )
            )
            time.sleep(1.0)
            under_load(base, server.url, args)
            return
        print("| workers | last bid → reveal p50 ms | p99 ms | deadline late p50 s | max s |")
        print("| --- | --- | --- | --- | --- |")
        for workers in (1, 2):
            crew.append(start_worker(server.url, queues.url))  # one more worker each round
            time.sleep(1.0)
            lat = closed_auction_latencies(base, args.phases)
            late = deadline_lateness(base, args.deadlines)
            print(
                f"| {workers} | {percentile(lat, 50) * 1e3:.1f} | {percentile(lat, 99) * 1e3:.1f}"
                f" | {percentile(late, 50):.2f} | {max(late):.2f} |"
            )
        print("targets: reveal p50 <= 50 ms; deadlines at most 2 s late")
    finally:
        for worker in crew:  # a worker and the RQ scheduler it forked
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()
        stop(procs)  # gunicorn's workers before Redis: none is left beating a stopped Redis
        server.stop()
        if queues is not server:
            queues.stop()


if __name__ == "__main__":
    main()

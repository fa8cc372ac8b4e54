"""Notifications under load: turn messages to away players by e-mail and webhook, and what
subscriptions cost the games.

    python -m bench.jobs.notify [--players 30] [--seconds 30] [--delay 1] [--answer 5]
                           [--workers 1] [--clients 8] [--think 0.05] [--no-rate]

Serves the API under gunicorn (2 processes) and `--workers` `marketfold worker` processes
(they share the queues, as `marketfold serve --workers N` runs them) on an embedded Valkey,
with a real SMTP server (aiosmtpd) and a webhook receiver that verifies every request
with the `standardwebhooks` library, both on loopback (bench/jobs/receivers.py;
MARKETFOLD_OUTBOUND_ALLOW lets the workers post to loopback, as an operator would).

1. Away players: `--players` players (tables of 3, Goblin Market, one-hour decisions, so
   nothing defaults), each with a verified e-mail address and a webhook for every type,
   none with an open stream. A player acts only once both messages of its turn have
   arrived (or 60 s after the first, if the other never comes), `--answer` s later on
   average (uniform 0.5-1.5x: the time a person takes to open the mail, or a bot's queue),
   so every decision is notified on both channels. The tables start over the first
   `--answer` s. No thread waits per player: arrivals are handed to a dispatcher, and
   `--clients` threads play the decisions as they fall due. Printed: from "the decision
   became yours" (the note's time, written with the append) to the mail's arrival at the
   SMTP server and the webhook's at the receiver, p50 / p99 / max, also less the "not
   seen live" delay (`--delay`, NOTIFY_LIVE_DELAY_S); the workers' CPU per delivered
   message (every e-mail and webhook that arrived, of any type); and, sampled each second,
   the notification steps due and not yet taken by a worker's notifier, and how long the
   oldest of them had been due (where a backlog waits). Also for the turns that began in
   the second half of the phase (after the tables' start).
2. Action rate: the same number of players at new tables played as fast as `--clients`
   threads can (`--think` s between one thread's actions), `--seconds` without any
   subscription, then `--seconds` with both (e-mail and webhook) on every player: the
   decisions left longer than the delay are really sent on both channels.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque

import redis
import requests

from bench.common import ROOT, cpu_seconds, gunicorn, machine, own_cpu_seconds, stop
from bench.jobs.notify_players import Away, Sampler, Setup, act_owed, report
from bench.jobs.receivers import SmtpServer, WebhookServer
from cli.embedded import EmbeddedRedis, free_port
from events import keys
from tests.support.waiting import wait_up


def rate(
    base: str, setup: Setup, args, subscribed: bool, parts: dict[str, list[int]], away: Away
) -> tuple[float, int, dict[str, float], int]:
    """Phase 2: actions per second of tables played as fast as `--clients` threads can;
    returns it, the number of tables, the CPU seconds each part of `parts` (name -> pids)
    and this process used meanwhile, and the messages that arrived meanwhile."""
    games = deque(setup.tables(args.players, "fast" + "ns"[subscribed], subscribed))
    count, lock, ends = [0], threading.Lock(), time.time() + args.seconds
    cpu0 = {name: sum(cpu_seconds(p) for p in pids) for name, pids in parts.items()}
    own0, arrived0 = own_cpu_seconds(), sum(away.delivered.values())

    def play(seed: int) -> None:
        s, rnd = requests.Session(), random.Random(seed)
        while time.time() < ends:
            with lock:
                gid, seated = games.popleft()
            done = act_owed(s, base, gid, seated, rnd)
            with lock:
                games.append((gid, seated))
                count[0] += done
            time.sleep(args.think)

    threads = [threading.Thread(target=play, args=(i,)) for i in range(args.clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    cpu = {name: sum(cpu_seconds(p) for p in pids) - cpu0[name] for name, pids in parts.items()}
    cpu["players and receivers (this process)"] = own_cpu_seconds() - own0
    return count[0] / args.seconds, len(games), cpu, sum(away.delivered.values()) - arrived0


def drain(r: redis.Redis, most_s: float = 180) -> float:
    """Wait (at most `most_s`) for the due notification steps to be taken, so that the next phase
    does not pay for this one's backlog; return how long it took."""
    t0 = time.time()
    sets = (keys.notify_due(turns=True), keys.notify_due())
    while any(r.zcount(k, "-inf", time.time()) for k in sets) and time.time() - t0 < most_s:
        time.sleep(0.5)
    return time.time() - t0


def start_workers(n: int, env: dict[str, str], url: str) -> list[subprocess.Popen]:
    return [
        subprocess.Popen(
            [sys.executable, "-m", "cli", "worker"],
            env={**os.environ, **env, "REDIS_URL": url, "PYTHONPATH": str(ROOT)},
            cwd=ROOT,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(n)
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=30, help="players (tables of 3)")
    ap.add_argument("--seconds", type=float, default=30, help="each phase's length")
    ap.add_argument("--delay", type=float, default=1, help="NOTIFY_LIVE_DELAY_S")
    ap.add_argument("--answer", type=float, default=5, help="mean s an away player takes")
    ap.add_argument("--workers", type=int, default=1, help="marketfold worker processes")
    ap.add_argument("--clients", type=int, default=8, help="threads playing the decisions")
    ap.add_argument("--think", type=float, default=0.05, help="s between a thread's actions")
    ap.add_argument("--no-rate", action="store_true", help="measure the away players only")
    ap.add_argument("--only-rate", action="store_true", help="measure the action rate only")
    ap.add_argument("--pairs", type=int, default=1, help="rate phases without/with, alternated")
    args = ap.parse_args()
    server = EmbeddedRedis(tempfile.mkdtemp(prefix="mf-notify-"), port=free_port()).start()
    r = redis.Redis.from_url(server.url)
    away = Away("", r, args)
    smtp = SmtpServer(away.arrived, free_port()).start()
    hooks = WebhookServer(away.arrived).start()
    env = {
        "MARKETFOLD_SMTP_URL": f"smtp://127.0.0.1:{smtp.port}",
        "MARKETFOLD_NOTIFY_LIVE_DELAY_S": str(args.delay),
        "MARKETFOLD_PUBLIC_URL": "http://bench.example",
        "MARKETFOLD_OUTBOUND_ALLOW": "127.0.0.0/8",  # the webhook receiver is on loopback
    }
    port = free_port()
    procs = [gunicorn("cli.wsgi:app", port, server.url, workers=2, **env)]
    workers = start_workers(args.workers, env, server.url)
    procs += workers
    away.base = base = f"http://127.0.0.1:{port}"
    dispatcher = threading.Thread(target=away.dispatch, daemon=True)
    dispatcher.start()
    try:
        wait_up(base + "/healthz")
        print(f"# bench/jobs/notify.py {vars(args)} on {machine()}", flush=True)
        setup = Setup(base, hooks, r)
        if not args.only_rate:
            sampler = Sampler(r)
            sampler.start()
            cpu = away.run(setup, [w.pid for w in workers])
            sampler.stopped.set()
            report(away, cpu, sampler, args)
            if hooks.rejected:
                print(f"  {hooks.rejected} webhook requests failed verification")
            sys.stdout.flush()
            drained = drain(r)
            print(f"  no notification step was left due {drained:.0f} s after the phase ended")
        if args.no_rate:
            return
        ratios = []
        parts = {"API": [procs[0].pid], "workers": [w.pid for w in workers]}
        parts["Valkey"] = [server.process.pid]
        for _ in range(args.pairs):  # alternated, so that a machine's swings fall on both
            without, n, cpu0, _ = rate(base, setup, args, False, parts, away)
            workers0, arrived0 = sum(cpu_seconds(w.pid) for w in workers), away.total()
            with_, _, cpu1, sent = rate(base, setup, args, True, parts, away)
            drain(r)
            time.sleep(2)  # the last sends' arrivals
            spent = sum(cpu_seconds(w.pid) for w in workers) - workers0
            told = away.total() - arrived0
            per_action = cpu0["workers"] / max(1.0, without * args.seconds)  # without
            extra = spent - per_action * with_ * args.seconds
            ratios.append(with_ / without)
            print(
                f"action rate ({n} tables, {args.clients} clients): {without:.1f}/s without "
                f"subscriptions, {with_:.1f}/s with e-mail and webhook on every player "
                f"({with_ / without * 100:.0f}%); {sent} messages arrived meanwhile; load average "
                f"{os.getloadavg()[0]:.1f}",
                flush=True,
            )
            for name in cpu0:
                per = [
                    c / max(1, a * args.seconds) * 1e3
                    for c, a in ((cpu0[name], without), (cpu1[name], with_))
                ]
                print(f"  CPU ms per action, {name}: {per[0]:.2f} without, {per[1]:.2f} with")
            print(
                f"  {told} messages in the phase and its drain; the workers' CPU beyond the "
                f"same actions' without: {extra / max(1, told) * 1e3:.1f} ms per message"
            )
        if len(ratios) > 1:
            print(f"  median of {len(ratios)} pairs: {statistics.median(ratios) * 100:.0f}%")
    finally:
        away.arrivals.put(None)
        stop(procs)
        smtp.stop()
        hooks.stop()
        server.stop()


if __name__ == "__main__":
    main()

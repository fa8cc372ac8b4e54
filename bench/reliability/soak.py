"""A soak test (not run in CI): N games at a time for M minutes, reporting memory growth.

    python -m bench.reliability.soak [--games 8] [--minutes 10] [--every 30]
    python -m bench.reliability.soak --server URL --redis URL --pids 1234,5678   # a running service

Bots play every ruleset in turn through the API (random legal actions, every seat of a
game from one thread); a finished game is replaced by a new one, so N games are always in
play. Every `--every` seconds it prints games finished, actions, Redis's memory (INFO
memory: used_memory and RSS) and the resident memory of the API (gunicorn master and
workers) and the worker (and the scheduler it forks), read from /proc. At the end it
prints the growth since the first sample, per finished game: the Redis figure grows with
the logs kept (expected), the processes' figures should level off.

Without --server it starts its own embedded Redis, gunicorn and one worker on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import threading
import time

import redis
import requests

import games
from bench.common import children, gunicorn, rss_kib, start_worker, stop
from cli.embedded import EmbeddedRedis, free_port
from games.schemas import random_action
from tests.support.waiting import wait_up


class Soak:
    def __init__(self, base: str, games_at_once: int):
        self.base, self.n = base, games_at_once
        self.finished = self.actions = self.errors = 0
        self.stop = threading.Event()
        self.lock = threading.Lock()

    def new_game(self, s: requests.Session, ruleset: str, rnd: random.Random):
        game = games.get(ruleset)
        n = rnd.randint(game.min_players, min(game.max_players, 4))
        people = [
            s.post(f"{self.base}/v1/players", json={"name": f"soak{i}"}).json() for i in range(n)
        ]
        auth = [{"Authorization": f"Bearer {p['token']}"} for p in people]
        gid = s.post(
            f"{self.base}/v1/games", json={"ruleset": ruleset, "players": n}, headers=auth[0]
        ).json()["id"]
        for h in auth:
            s.post(f"{self.base}/v1/games/{gid}/join", headers=h)
        return gid, {s.get(f"{self.base}/v1/games/{gid}", headers=h).json()["you"]: h for h in auth}

    def bot(self, i: int) -> None:
        """Play games one after another until told to stop."""
        rnd, s = random.Random(i), requests.Session()
        names = sorted(games.REGISTRY)
        while not self.stop.is_set():
            try:
                gid, seats = self.new_game(s, names[(i + self.finished) % len(names)], rnd)
                self.play(s, gid, seats, rnd)
            except requests.RequestException:
                with self.lock:
                    self.errors += 1
                time.sleep(1)

    def play(self, s: requests.Session, gid: str, seats: dict, rnd: random.Random) -> None:
        while not self.stop.is_set():
            game = s.get(f"{self.base}/v1/games/{gid}").json()
            if game["status"] == "finished":
                with self.lock:
                    self.finished += 1
                return
            if not game["owed"]:
                time.sleep(0.02)  # a worker resolves the phase
                continue
            seat = rnd.choice(game["owed"])["seat"]
            legal = s.get(f"{self.base}/v1/games/{gid}/legal", headers=seats[seat]).json()
            if legal["actions"]:
                res = s.post(
                    f"{self.base}/v1/games/{gid}/actions",
                    headers=seats[seat],
                    json=random_action(legal["actions"], rnd),
                )
                with self.lock:
                    self.actions += res.status_code in (201, 202)
                    self.errors += res.status_code >= 500


def sample(soak: Soak, r: redis.Redis, api: list[int], workers: list[int], t0: float) -> dict:
    mem = r.info("memory")
    api_pids = [p for pid in api for p in (pid, *children(pid))]
    worker_pids = [p for pid in workers for p in (pid, *children(pid))]
    return {
        "t": time.monotonic() - t0,
        "finished": soak.finished,
        "actions": soak.actions,
        "errors": soak.errors,
        "redis": mem["used_memory"] / 2**20,
        "redis_rss": mem["used_memory_rss"] / 2**20,
        "api": sum(map(rss_kib, api_pids)) / 1024,
        "worker": sum(map(rss_kib, worker_pids)) / 1024,
    }


ROW = (
    "| {t:6.0f} | {finished:6d} | {actions:8d} | {errors:4d} | {redis:8.1f} | "
    "{redis_rss:8.1f} | {api:7.1f} | {worker:7.1f} |"
)


def report(rows: list[dict]) -> None:
    first, last = rows[0], rows[-1]
    games_done = max(1, last["finished"] - first["finished"])
    print(f"\ngrowth over {last['t'] - first['t']:.0f} s and {games_done} finished games:")
    for key, name in (
        ("redis", "Redis used_memory"),
        ("redis_rss", "Redis RSS"),
        ("api", "API RSS"),
        ("worker", "worker RSS"),
    ):
        grown = last[key] - first[key]
        print(
            f"  {name:18} {first[key]:8.1f} -> {last[key]:8.1f} MiB "
            f"({grown:+.1f} MiB, {grown * 1024 / games_done:+.1f} KiB per finished game)"
        )


def soak(base: str, r: redis.Redis, api: list[int], workers: list[int], args) -> None:
    s = Soak(base, args.games)
    bots = [threading.Thread(target=s.bot, args=(i,), daemon=True) for i in range(args.games)]
    for b in bots:
        b.start()
    t0, rows = time.monotonic(), []
    print("|      s | games  |  actions | 5xx  | Redis MiB | Redis RSS | API RSS | worker RSS |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    try:
        while time.monotonic() - t0 < args.minutes * 60:
            rows.append(sample(s, r, api, workers, t0))
            print(ROW.format(**rows[-1]), flush=True)
            time.sleep(min(args.every, max(0.0, args.minutes * 60 - (time.monotonic() - t0))))
        rows.append(sample(s, r, api, workers, t0))
        print(ROW.format(**rows[-1]), flush=True)
    finally:
        s.stop.set()
        for b in bots:
            b.join(30)
    report(rows[1:] if len(rows) > 2 else rows)  # the first sample is before any warm-up


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=8, help="games in play at once")
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--every", type=float, default=30, help="seconds between samples")
    ap.add_argument("--server", help="a running service's base URL (needs --redis)")
    ap.add_argument("--redis", help="its REDIS_URL")
    ap.add_argument("--pids", default="", help="its API and worker pids, comma-separated")
    args = ap.parse_args()
    if args.server:
        pids = [int(p) for p in args.pids.split(",") if p]
        soak(args.server, redis.Redis.from_url(args.redis), pids, [], args)
        return
    server = EmbeddedRedis(tempfile.mkdtemp(prefix="mf-soak-"), port=free_port()).start()
    port = free_port()
    api, worker = gunicorn("cli.wsgi:app", port, server.url), start_worker(server.url)
    try:
        wait_up(f"http://127.0.0.1:{port}/healthz")
        soak(
            f"http://127.0.0.1:{port}",
            redis.Redis.from_url(server.url),
            [api.pid],
            [worker.pid],
            args,
        )
    finally:
        stop([worker, api])
        server.stop()


if __name__ == "__main__":
    main()

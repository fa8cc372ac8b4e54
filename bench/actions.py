"""Actions/s and latency over HTTP, next to a bare Flask+gunicorn endpoint doing one XADD.

Each simulated turn is one GET (marketfold: the legal actions; bare: the stream's last
entry) and one POST (marketfold: the action; bare: one XADD); latency is the POST's.

    python bench/actions.py [--clients 8] [--games 16] [--server URL --redis URL]

Without --server it starts an embedded Redis and gunicorn itself (same settings as
`marketfold serve`), and always starts the bare endpoint on the same Redis, so both
figures come from the same run on the same machine. It also times GET /v1/games/{id}
at the start and the end of a game, and on a synthetic 5,000-event log.
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
from pathlib import Path

import redis
import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import gunicorn, percentile, wait_up  # noqa: E402
from service.embedded import EmbeddedRedis, free_port  # noqa: E402


def player(base: str, s: requests.Session, name: str) -> dict:
    return s.post(f"{base}/v1/players", json={"name": name}).json()


def play_game(base: str, n: int, seed: int, latencies: list[float]) -> str:
    """Create an n-player Goblin Market game and play it to the end with random legal moves."""
    rnd = random.Random(seed)
    s = requests.Session()
    people = [player(base, s, f"bench{seed}-{i}") for i in range(n)]
    auth = [{"Authorization": f"Bearer {p['token']}"} for p in people]
    game = s.post(
        f"{base}/v1/games", json={"ruleset": "goblin-market", "players": n}, headers=auth[0]
    ).json()
    gid = game["id"]
    for h in auth:
        s.post(f"{base}/v1/games/{gid}/join", headers=h)
    seat_auth = {}
    for h in auth:
        seat_auth[s.get(f"{base}/v1/games/{gid}", headers=h).json()["you"]] = h
    owed = s.get(f"{base}/v1/games/{gid}").json()["owed"]
    while owed:  # each turn: one GET of the legal actions, one POST
        seat = owed[0]["seat"]
        legal = s.get(f"{base}/v1/games/{gid}/legal", headers=seat_auth[seat]).json()
        action = pick(rnd, legal["actions"])
        t0 = time.perf_counter()
        r = s.post(f"{base}/v1/games/{gid}/actions", json=action, headers=seat_auth[seat])
        latencies.append(time.perf_counter() - t0)
        r.raise_for_status()
        owed = r.json()["owed"]
    return gid


def pick(rnd: random.Random, specs: list[dict]) -> dict:
    spec = rnd.choice(specs)
    if spec["choices"]:
        return rnd.choice(spec["choices"])
    amount = spec["schema"]["properties"]["amount"]
    return {"type": spec["type"], "amount": rnd.randint(amount["minimum"], amount["maximum"])}


def run_clients(clients: int, work) -> tuple[float, list[float]]:
    latencies: list[float] = []
    threads = [threading.Thread(target=work, args=(i, latencies)) for i in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - t0, latencies


def bench_games(base: str, clients: int, games: int) -> tuple[float, list[float], list[str]]:
    ids: list[str] = []

    def work(i: int, lat: list[float]) -> None:
        for g in range(i, games, clients):
            ids.append(play_game(base, 3 + g % 4, g, lat))

    elapsed, lat = run_clients(clients, work)
    return elapsed, lat, ids


def bench_bare(bare: str, clients: int, per_client: int) -> tuple[float, list[float]]:
    def work(i: int, lat: list[float]) -> None:
        s = requests.Session()
        for k in range(per_client):  # the same pattern: one GET, one POST
            s.get(f"{bare}/last/{i}").raise_for_status()
            t0 = time.perf_counter()
            s.post(f"{bare}/xadd/{i}", json={"type": "bid", "amount": k}).raise_for_status()
            lat.append(time.perf_counter() - t0)

    return run_clients(clients, work)


def time_get(base: str, gid: str, repeat: int = 200) -> float:
    s = requests.Session()
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        s.get(f"{base}/v1/games/{gid}").raise_for_status()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def synthetic_long_game(base: str, redis_url: str, events: int) -> tuple[float, float]:
    """Median GET of a fresh game, then of the same game after `events` more events."""
    from events import codec, keys
    from events.store import EventStore

    s = requests.Session()
    people = [player(base, s, f"long-{i}") for i in range(3)]
    auth = [{"Authorization": f"Bearer {p['token']}"} for p in people]
    gid = s.post(
        f"{base}/v1/games", json={"ruleset": "goblin-market", "players": 3}, headers=auth[0]
    ).json()["id"]
    for h in auth:
        s.post(f"{base}/v1/games/{gid}/join", headers=h)
    start = time_get(base, gid)
    store = EventStore(redis.Redis.from_url(redis_url))
    last = store.read(gid)[-1]
    pad = [
        {
            "seq": last["seq"] + 1 + i,
            "type": "game.Annotated",
            "data": {"note": i},
            "actor": "system",
            "at": codec.now_iso(),
            "cause": "bench",
            "visible_to": "all",
        }
        for i in range(events)
    ]
    codec.seal(pad, last["hash"])
    store.append(gid, pad, last["seq"])
    assert store.redis.xlen(keys.game_events(gid)) == last["seq"] + events
    return start, time_get(base, gid)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--server", help="base URL of a running service (needs --redis)")
    ap.add_argument("--redis", help="its REDIS_URL")
    args = ap.parse_args()
    procs: list[subprocess.Popen] = []
    server = None
    try:
        redis_url = args.redis
        if not redis_url:
            server = EmbeddedRedis(tempfile.mkdtemp(prefix="mf-bench-"), port=free_port()).start()
            redis_url = server.url
        base = args.server
        if not base:
            port = free_port()
            procs.append(gunicorn("service.wsgi:app", port, redis_url))
            base = f"http://127.0.0.1:{port}"
        bare_port = free_port()
        procs.append(gunicorn("bench.bare_app:app", bare_port, redis_url))
        bare = f"http://127.0.0.1:{bare_port}"
        wait_up(base + "/healthz")
        wait_up(bare + "/healthz")

        elapsed, lat, ids = bench_games(base, args.clients, args.games)
        bare_elapsed, bare_lat = bench_bare(bare, args.clients, max(1, len(lat) // args.clients))
        ours, theirs = len(lat) / elapsed, len(bare_lat) / bare_elapsed
        print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
        print(f"{args.clients} clients, {len(ids)} full Goblin Market games, {len(lat)} actions")
        print("| endpoint | actions/s | p50 ms | p99 ms |")
        print("| --- | --- | --- | --- |")
        for name, rate, xs in (
            ("marketfold POST /actions", ours, lat),
            ("bare Flask+gunicorn XADD", theirs, bare_lat),
        ):
            print(
                f"| {name} | {rate:.0f} | {percentile(xs, 50) * 1e3:.1f} "
                f"| {percentile(xs, 99) * 1e3:.1f} |"
            )
        print(f"marketfold / bare: {ours / theirs:.0%} (target >= 40%)")

        fresh, done = synthetic_long_game(base, redis_url, 0)[0], time_get(base, ids[0])
        print(
            f"GET /v1/games/{{id}} p50: game start {fresh * 1e3:.2f} ms, "
            f"finished game {done * 1e3:.2f} ms ({done / fresh:.2f}x)"
        )
        start, long = synthetic_long_game(base, redis_url, 5000)
        print(
            f"GET /v1/games/{{id}} p50: start {start * 1e3:.2f} ms, after 5,000 more events "
            f"{long * 1e3:.2f} ms ({long / start:.2f}x, target <= 1.5x)"
        )
    finally:
        for p in procs:
            p.terminate()
            p.wait(10)
        if server:
            server.stop()


if __name__ == "__main__":
    main()

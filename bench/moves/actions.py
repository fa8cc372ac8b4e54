"""Actions/s and latency over HTTP, next to a bare Flask+gunicorn endpoint doing one XADD.

Each simulated turn is one GET (marketfold: the legal actions; bare: the stream's last
entry) and one POST (marketfold: the action; bare: one XADD); latency is the POST's.
With --one-call marketfold's clients move in one call instead (bench/moves/one_call.py: each
seat follows its event stream and acts from its `owes` frames and its answers'
`actions`, never asking GET /legal); the bare endpoint keeps its GET+POST pattern.

    python -m bench.moves.actions [--clients 8] [--games 16] [--one-call] [--server URL --redis URL]

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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import redis
import requests

from bench.common import gunicorn, percentile
from bench.moves.one_call import play_one_call
from cli.embedded import EmbeddedRedis, free_port
from games.schemas import random_action
from tests.support.waiting import wait_up


@dataclass
class Figures:
    """Throughput and latency of one measured run."""

    actions: int
    seconds: float
    latencies: list[float]
    games: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.actions / self.seconds

    def ms(self, p: float) -> float:
        """Return the p-th percentile latency in milliseconds."""
        return percentile(self.latencies, p) * 1e3


def player(base: str, s: requests.Session, name: str) -> dict:
    return s.post(f"{base}/v1/players", json={"name": name}).json()


def seated_game(base: str, s: requests.Session, n: int, tag: str) -> tuple[str, dict]:
    """Create an n-player Goblin Market game, seat n new players; return (id, seat -> auth)."""
    people = [player(base, s, f"{tag}-{i}") for i in range(n)]
    auth = [{"Authorization": f"Bearer {p['token']}"} for p in people]
    game = s.post(
        f"{base}/v1/games", json={"ruleset": "goblin-market", "players": n}, headers=auth[0]
    ).json()
    gid = game["id"]
    for h in auth:
        s.post(f"{base}/v1/games/{gid}/join", headers=h)
    return gid, {s.get(f"{base}/v1/games/{gid}", headers=h).json()["you"]: h for h in auth}


def play_seated(
    base: str, s: requests.Session, gid: str, seats: dict, seed: int, latencies: list[float]
) -> int:
    """Play a seated game to the end with random legal moves; return the actions made.
    Each turn is one GET of the legal actions and one timed POST."""
    rnd, made = random.Random(seed), 0
    owed = s.get(f"{base}/v1/games/{gid}").json()["owed"]
    while owed:
        seat = owed[0]["seat"]
        legal = s.get(f"{base}/v1/games/{gid}/legal", headers=seats[seat]).json()
        action = random_action(legal["actions"], rnd)
        t0 = time.perf_counter()
        r = s.post(f"{base}/v1/games/{gid}/actions", json=action, headers=seats[seat])
        latencies.append(time.perf_counter() - t0)
        r.raise_for_status()
        owed, made = r.json()["owed"], made + 1
    return made


def play_game(base: str, n: int, seed: int, latencies: list[float]) -> str:
    """Create an n-player Goblin Market game and play it to the end with random legal moves."""
    s = requests.Session()
    gid, seats = seated_game(base, s, n, f"bench{seed}")
    play_seated(base, s, gid, seats, seed, latencies)
    return gid


def run_clients(clients: int, work) -> tuple[float, list[float]]:
    latencies: list[float] = []
    threads = [threading.Thread(target=work, args=(i, latencies)) for i in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - t0, latencies


def bench_bare(bare: str, clients: int, per_client: int) -> tuple[float, list[float]]:
    def work(i: int, lat: list[float]) -> None:
        s = requests.Session()
        for k in range(per_client):  # the same pattern: one GET, one POST
            s.get(f"{bare}/last/{i}").raise_for_status()
            t0 = time.perf_counter()
            s.post(f"{bare}/xadd/{i}", json={"type": "bid", "amount": k}).raise_for_status()
            lat.append(time.perf_counter() - t0)

    return run_clients(clients, work)


def seat_tables(base: str, games: int) -> list[tuple[str, dict]]:
    """Create `games` Goblin Market games of 3-6 seats and seat their players."""
    with ThreadPoolExecutor(8) as pool:
        return list(
            pool.map(
                lambda g: seated_game(base, requests.Session(), 3 + g % 4, f"b{g}"),
                range(games),
            )
        )


def measure_http(
    base: str, clients: int, games: int, tables: list | None = None, one_call: bool = False
) -> Figures:
    """Actions/s over HTTP: `clients` threads play `games` full Goblin Market games (3-6
    players), created and seated beforehand so that only play is timed (or play `tables`,
    seated games from `seated_game`); each move a GET of the legal actions and a POST,
    or (`one_call`) the POST alone, the seats following their event streams."""
    if tables is None:
        tables = seat_tables(base, games)
    play = play_one_call if one_call else play_seated

    def work(i: int, lat: list[float]) -> None:
        s = requests.Session()
        for g in range(i, games, clients):
            play(base, s, *tables[g], g, lat)

    elapsed, lat = run_clients(clients, work)
    return Figures(len(lat), elapsed, lat, [gid for gid, _ in tables])


def measure_bare(bare: str, clients: int, actions: int) -> Figures:
    """The baseline at the same concurrency, for about `actions` GET+POST pairs."""
    elapsed, lat = bench_bare(bare, clients, max(1, actions // clients))
    return Figures(len(lat), elapsed, lat)


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
    from events import codec, envelope, keys
    from events.recorder import RedisRecorder
    from events.repository import GameAppend, GameRepository
    from games.base import Event

    s = requests.Session()
    people = [player(base, s, f"long-{i}") for i in range(3)]
    auth = [{"Authorization": f"Bearer {p['token']}"} for p in people]
    gid = s.post(
        f"{base}/v1/games", json={"ruleset": "goblin-market", "players": 3}, headers=auth[0]
    ).json()["id"]
    for h in auth:
        s.post(f"{base}/v1/games/{gid}/join", headers=h)
    start = time_get(base, gid)
    store = GameRepository(RedisRecorder(redis.Redis.from_url(redis_url)))
    last = store.read(gid)[-1]
    notes = [Event("game.Annotated", {"note": i}) for i in range(events)]
    pad = envelope.build(notes, last["seq"], "system", "bench", codec.now_iso())
    codec.seal(pad, last["hash"])
    store.append(GameAppend(game_id=gid, envelopes=pad, expected=last["seq"]))
    assert store.recorder.redis.xlen(keys.game_events(gid)) == last["seq"] + events
    return start, time_get(base, gid)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--one-call", action="store_true", help="one POST per move (streams)")
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
            procs.append(gunicorn("cli.wsgi:app", port, redis_url))
            base = f"http://127.0.0.1:{port}"
        bare_port = free_port()
        procs.append(gunicorn("bench.moves.bare_app:app", bare_port, redis_url))
        bare = f"http://127.0.0.1:{bare_port}"
        wait_up(base + "/healthz")
        wait_up(bare + "/healthz")

        ours = measure_http(base, args.clients, args.games, one_call=args.one_call)
        theirs = measure_bare(bare, args.clients, ours.actions)
        ids = ours.games
        print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
        mode = "one call per move" if args.one_call else "GET /legal + POST per move"
        print(f"{args.clients} clients, {len(ids)} Goblin Market games, {ours.actions} actions")
        print(f"marketfold: {mode}; bare: GET + POST per action")
        print("| endpoint | actions/s | p50 ms | p99 ms |")
        print("| --- | --- | --- | --- |")
        for name, fig in (
            ("marketfold POST /actions", ours),
            ("bare Flask+gunicorn XADD", theirs),
        ):
            print(f"| {name} | {fig.rate:.0f} | {fig.ms(50):.1f} | {fig.ms(99):.1f} |")
        print(f"marketfold / bare: {ours.rate / theirs.rate:.0%} (target >= 75%, #34)")

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

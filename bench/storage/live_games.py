"""How cost grows with the number of live games in Redis: 10, 100, 1,000, 10,000.

    python -m bench.storage.live_games --server URL --redis URL [--levels 10,100,1000,10000]

At each level the live games are topped up (Goblin Market, 3 seats, started and waiting
for the first bid) by calling the service's own use cases in this process, in parallel
processes: the same functions the API views call, so Redis holds exactly what the API
would have written, without paying HTTP for setup. Then a sample of 8 games is created
through the API and played to the end by 8 clients (one GET of legal actions and one POST
per turn, as bench/moves/actions.py), while the rest sit in Redis; it also times GET
/v1/games/{id} on a resting game and notes Redis's used_memory.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from multiprocessing import Pool

import redis
import requests

from bench.moves.actions import Figures, play_seated, run_clients, seated_game
from bench.storage.memory import deps_for, seated

SAMPLE = 8


def _fill(args: tuple[str, int]) -> list[str]:
    redis_url, count = args
    deps = deps_for(redis_url)
    return [seated(deps, "goblin-market", 3)[0] for _ in range(count)]


def top_up(redis_url: str, count: int, procs: int = 2) -> list[str]:
    """Create `count` started games with the use cases, in `procs` processes."""
    if count <= 0:
        return []
    shares = [count // procs + (i < count % procs) for i in range(procs)]
    with Pool(procs) as pool:
        return [g for part in pool.map(_fill, [(redis_url, n) for n in shares if n]) for g in part]


def play_sample(base: str, clients: int = SAMPLE) -> Figures:
    """Create SAMPLE games through the API and play them to the end with `clients`."""
    tables = [seated_game(base, requests.Session(), 3, f"s{i}") for i in range(SAMPLE)]

    def work(i: int, lat: list[float]) -> None:
        s = requests.Session()
        for g in range(i, SAMPLE, clients):
            play_seated(base, s, *tables[g], g, lat)

    elapsed, lat = run_clients(clients, work)
    return Figures(len(lat), elapsed, lat)


def get_p50(base: str, gid: str, repeat: int = 100) -> float:
    s, samples = requests.Session(), []
    for _ in range(repeat):
        t0 = time.perf_counter()
        s.get(f"{base}/v1/games/{gid}").raise_for_status()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def scale_rows(base: str, redis_url: str, levels: list[int]) -> list[dict[str, float]]:
    """Measure each level in turn; return one row per level."""
    r, live, rows = redis.Redis.from_url(redis_url), [], []
    for level in levels:
        started = time.perf_counter()
        live += top_up(redis_url, level - SAMPLE - len(live))
        made = time.perf_counter() - started
        fig = play_sample(base)
        rows.append(
            {
                "live": len(live) + SAMPLE,
                "rate": fig.rate,
                "p50": fig.ms(50),
                "p99": fig.ms(99),
                "get_ms": get_p50(base, live[0]) * 1e3 if live else float("nan"),
                "memory_mb": r.info("memory")["used_memory"] / 2**20,
                "fill_s": made,
            }
        )
    return rows


def scale_table(rows: list[dict[str, float]]) -> list[str]:
    """Return the Markdown table for `scale_rows`."""
    out = [
        "| live games | actions/s | p50 ms | p99 ms | GET game p50 ms | Redis used MiB | setup s |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        out.append(
            f"| {row['live']:,} | {row['rate']:.0f} | {row['p50']:.1f} | "
            f"{row['p99']:.1f} | {row['get_ms']:.2f} | {row['memory_mb']:,.1f} | "
            f"{row['fill_s']:.0f} |"
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", required=True, help="base URL of a running service")
    ap.add_argument("--redis", required=True, help="its REDIS_URL")
    ap.add_argument("--levels", default="10,100,1000,10000")
    args = ap.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    print(f"{os.cpu_count()} cores")
    print("\n".join(scale_table(scale_rows(args.server, args.redis, levels))))


if __name__ == "__main__":
    main()

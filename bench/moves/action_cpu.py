"""CPU per action of the API's own code, in one process: A/B runs and a profile.

    python -m bench.moves.action_cpu [--games 8] [--runs 5] [--ab actions,inbox,...] [--profile]

Plays full Goblin Market games (3-6 seats, random legal moves, as bench/moves/actions.py)
through Flask's test client on the API's app (an embedded Valkey, appendfsync always),
each turn a `GET /legal` and a `POST /actions` (the POST admitted without a round trip,
as after a keep-alive GET on the served API), and reports the CPU time of this process
per action: client and server in one process, so no gunicorn and no sockets, but the
same views, the same Redis round trips and the same rules.

`--ab PART,...` alternates runs with one part switched off (monkey-patched here, never in
the service) and runs with everything on, `--runs` pairs each, and prints the median CPU
per action of each and the difference: what that part costs. PARTS lists what can be
switched off. `--profile` runs once under cProfile and prints the costliest functions
(its per-call overhead inflates small functions and built-ins: read it for what calls
what, and the A/B runs for what it costs).

`--b-root CHECKOUT` compares this checkout's code with another's (e.g. `git worktree add
--detach /tmp/old REV`), on this one's installed packages: `--runs` alternated pairs of
processes, each playing `--games` games twice on its own Valkey, and prints the median
CPU per action spent inside the app (the server's side only: no test client) for each.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from cli.embedded import EmbeddedRedis, free_port
from games.schemas import random_action

ROOT = Path(__file__).resolve().parents[2]
CODE = Path(os.environ.get("BENCH_CODE_ROOT") or ROOT)  # whose code runs (--b-root's child)

FAST = {
    "RATE_LIMIT_TOKEN": "100000000/minute",
    "RATE_LIMIT_ANON": "100000000/minute",
    "WAITING_GAMES_PER_PLAYER": 100000000,
}


def _swap(owner: object, name: str, value: object) -> Callable[[], None]:
    old = getattr(owner, name)
    setattr(owner, name, value)
    return lambda: setattr(owner, name, old)


def _off_actions(app) -> Callable[[], None]:
    """The POST answer without `actions` (#34.1)."""
    from service import game_queries

    return _swap(game_queries, "next_actions", lambda *a, **k: None)


def _off_inbox(app) -> Callable[[], None]:
    """No players' game sets and feed notes written with the append."""
    from service import inbox

    return _swap(inbox, "after_append", lambda *a, **k: None)


def _off_tlog(app) -> Callable[[], None]:
    """No public-log leaves (a game's created/started/ended)."""
    from events import transparency

    return _swap(transparency, "due", lambda *a, **k: [])


def _off_uploads(app) -> Callable[[], None]:
    """Bodies not read by the upload middleware (api.uploads) first."""
    from api.uploads import Uploads

    inner = app.wsgi_app
    if isinstance(inner, Uploads):
        return _swap(app, "wsgi_app", inner.app)
    return lambda: None


def _off_glossary(app) -> Callable[[], None]:
    """GET /legal without its cards glossary."""
    from api import present

    return _swap(present, "glossary", lambda *a, **k: {})


def _off_twowrites(app) -> Callable[[], None]:
    """gunicorn's two writes per answer (its head, then its body) made one (served only)."""
    from gunicorn import util
    from gunicorn.http import wsgi

    def write(self, arg):
        if self.headers_sent or self.chunked or self._omits_body or not isinstance(arg, bytes):
            return original(self, arg)
        if self.response_length is not None and len(arg) > self.response_length:
            return original(self, arg)
        tosend = self.default_headers()
        tosend.extend([f"{k}: {v}\r\n" for k, v in self.headers])
        head = util.to_bytestring("".join(tosend) + "\r\n", "latin-1")
        self.headers_sent = True
        self.sent += len(arg)
        util.write(self.sock, head + arg)

    original = wsgi.Response.write
    return _swap(wsgi.Response, "write", write)


PARTS: dict[str, Callable] = {
    "twowrites": _off_twowrites,
    "actions": _off_actions,
    "inbox": _off_inbox,
    "tlog": _off_tlog,
    "uploads": _off_uploads,
    "glossary": _off_glossary,
}


class Bench:
    """The app on an embedded Valkey, and seated games to play."""

    def __init__(self, redis_url: str):
        if (CODE / "cli" / "compose.py").exists():
            from cli.compose import create_app
        else:  # a checkout from before the composition root (an A/B)
            from api import create_app

        self.app = create_app({**FAST, "REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url})
        self.client = self.app.test_client()
        self.n = 0

    def seat(self, players: int) -> tuple[str, dict[int, dict[str, str]]]:
        c, self.n = self.client, self.n + 1
        auth = []
        for i in range(players):
            p = c.post("/v1/players", json={"name": f"cpu{self.n}-{i}"}).get_json()
            auth.append({"Authorization": f"Bearer {p['token']}"})
        body = {"ruleset": "goblin-market", "players": players}
        gid = c.post("/v1/games", json=body, headers=auth[0]).get_json()["id"]
        for h in auth:
            c.post(f"/v1/games/{gid}/join", headers=h)
        return gid, {c.get(f"/v1/games/{gid}", headers=h).get_json()["you"]: h for h in auth}

    def play(self, tables, seed: int) -> tuple[int, float, float]:
        """Play the seated games; return (actions, CPU s of the GETs, CPU s of the POSTs)."""
        c, rnd = self.client, random.Random(seed)
        actions, get_s, post_s = 0, 0.0, 0.0
        for gid, seats in tables:
            owed = c.get(f"/v1/games/{gid}").get_json()["owed"]
            while owed:
                h = seats[owed[0]["seat"]]
                t0 = time.process_time()
                legal = c.get(f"/v1/games/{gid}/legal", headers=h)
                t1 = time.process_time()
                r = c.post(
                    f"/v1/games/{gid}/actions",
                    json=random_action(legal.get_json()["actions"], rnd),
                    headers=h,
                )
                t2 = time.process_time()
                assert r.status_code in (201, 202), r.get_data()
                owed = r.get_json()["owed"]
                actions, get_s, post_s = actions + 1, get_s + t1 - t0, post_s + t2 - t1
        return actions, get_s, post_s

    def run(self, games: int, seed: int, off: list[str]) -> tuple[float, float]:
        """One run on new games with `off` parts switched off; return µs per action of the
        GET and of the POST."""
        tables = [self.seat(3 + g % 4) for g in range(games)]
        undo = [PARTS[p](self.app) for p in off]
        try:
            n, get_s, post_s = self.play(tables, seed)
        finally:
            for u in reversed(undo):
                u()
        return get_s * 1e6 / n, post_s * 1e6 / n


def ab(bench: Bench, parts: list[str], games: int, runs: int) -> list[str]:
    """For each part, `runs` alternated runs with everything on and with that part off
    (the same seeds); return a table of the medians (µs of this process's CPU per
    action), printing each row as it comes."""
    rows = [
        "| switched off | GET /legal µs | POST /actions µs | both | everything on: both | "
        "the part costs |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    print("\n".join(rows), flush=True)
    for part in parts:
        on, off = [], []
        for r in range(runs):  # alternated, the same seeds for both
            on.append(bench.run(games, r, []))
            off.append(bench.run(games, r, part.split("+")))
        g = statistics.median(x[0] for x in off)
        p = statistics.median(x[1] for x in off)
        both_off = statistics.median(x[0] + x[1] for x in off)
        both_on = statistics.median(x[0] + x[1] for x in on)
        rows.append(
            f"| {part} | {g:.0f} | {p:.0f} | {both_off:.0f} | {both_on:.0f} | "
            f"{both_on - both_off:+.0f} |"
        )
        print(rows[-1], flush=True)
    return rows


def ab_rows(redis_url: str, parts: list[str], games: int = 8, runs: int = 3) -> list[str]:
    """`ab` on a fresh app on the Redis at `redis_url` (bench/run_all.py's section)."""
    bench = Bench(redis_url)
    bench.run(2, 99, [])  # warm up: imports, scripts, caches
    return ab(bench, parts, games, runs)


def inside(redis_url: str, games: int, seed: int) -> dict[str, float]:
    """Play `games` games twice on a fresh app; return the median µs per action spent
    inside the app by the GETs, the POSTs and both (the child of `compare`)."""
    bench, runs, spent = Bench(redis_url), [], {}
    bench.run(2, 99, [])  # warm up
    app = bench.app.wsgi_app

    def timed(environ, start_response):
        t0 = time.process_time()
        try:
            return list(app(environ, start_response))
        finally:
            method = environ["REQUEST_METHOD"]
            spent[method] = spent.get(method, 0.0) + time.process_time() - t0

    bench.app.wsgi_app = timed
    for r in range(2):
        tables = [bench.seat(3 + g % 4) for g in range(games)]
        spent.clear()
        n, _, _ = bench.play(tables, seed + r)
        get, post = spent.get("GET", 0.0) * 1e6 / n, spent.get("POST", 0.0) * 1e6 / n
        runs.append({"get": get, "post": post, "both": get + post})
    return {k: statistics.median(run[k] for run in runs) for k in runs[0]}


def compare(b_root: Path, games: int, pairs: int) -> None:
    """Alternate processes running this checkout's code (A) and `b_root`'s (B)."""
    seen: dict[str, list[dict[str, float]]] = {"A": [], "B": []}
    roots = {"A": ROOT, "B": b_root.resolve()}
    print(f"A: {ROOT}, B: {roots['B']}; load average {os.getloadavg()}", flush=True)
    for i in range(pairs):
        for side in ("A", "B") if i % 2 == 0 else ("B", "A"):
            env = {
                **os.environ,
                "BENCH_CODE_ROOT": str(roots[side]),
                "PYTHONPATH": str(roots[side]),
            }
            argv = [sys.executable, __file__, "--inside", str(games), "--seed", str(100 + i)]
            out = subprocess.run(argv, env=env, cwd=roots[side], capture_output=True, text=True)
            if out.returncode:
                sys.exit(out.stderr[-3000:])
            seen[side].append(json.loads(out.stdout.splitlines()[-1]))
            row = seen[side][-1]
            print(f"{i} {side}: GET {row['get']:.0f} POST {row['post']:.0f} µs", flush=True)
    print(f"load average {os.getloadavg()}; medians, µs of the app's CPU per action:")
    for side, rows in seen.items():
        med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
        print(
            f"{side}: GET /legal {med['get']:.0f}, POST /actions {med['post']:.0f}, "
            f"both {med['both']:.0f}"
        )


def profile(bench: Bench, games: int, top: int) -> None:
    tables = [bench.seat(3 + g % 4) for g in range(games)]
    prof = cProfile.Profile(time.process_time)  # CPU time, not the waits on Redis
    prof.enable()
    n, get_s, post_s = bench.play(tables, 1)
    prof.disable()
    print(f"{n} actions; GET {get_s * 1e6 / n:.0f} µs, POST {post_s * 1e6 / n:.0f} µs (profiled)")
    for key in ("tottime", "cumulative"):
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats(key).print_stats(top)
        print(out.getvalue())
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_callers(12)
    print(out.getvalue())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--ab", default="", help="parts switched off in turn: " + ",".join(PARTS))
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--top", type=int, default=45)
    ap.add_argument("--b-root", type=Path, help="compare with this checkout's code")
    ap.add_argument("--inside", type=int, help=argparse.SUPPRESS)  # compare's child: games
    ap.add_argument("--seed", type=int, default=100, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.b_root:
        return compare(args.b_root, args.games, args.runs)
    server = EmbeddedRedis(tempfile.mkdtemp(prefix="mf-cpu-"), port=free_port()).start()
    try:
        if args.inside:
            return print(json.dumps(inside(server.url, args.inside, args.seed)))
        bench = Bench(server.url)
        bench.run(2, 99, [])  # warm up: imports, scripts, caches
        if args.profile:
            profile(bench, args.games, args.top)
        if args.ab:
            ab(bench, args.ab.split(","), args.games, args.runs)
        if not args.profile and not args.ab:
            for r in range(args.runs):
                g, p = bench.run(args.games, r, [])
                print(f"run {r}: GET /legal {g:.0f} µs, POST /actions {p:.0f} µs per action")
    finally:
        server.stop()


if __name__ == "__main__":
    main()

"""1,000 open event streams against the API as `marketfold serve` runs it: does anything
else slow down?

    python -m bench.streams.open_streams [--streams 1000] [--tokens 250] [--clients 8] [--games 16]

Starts an embedded Redis (appendfsync always), the API (cli.serve.gunicorn_argv: 2 gevent
processes) and one worker, then measures in one run:

1. Goblin Market actions/s (8 clients playing 16 seated games, as bench/moves/actions.py) and
   /healthz latency, with no stream open;
2. the same with `--streams` streams held open by `--tokens` players: every seated player
   follows its own game and its feed, the other tokens follow their feed, and every token
   fills its share with streams of waiting games (`--crowd`: the other tokens each follow
   one of the games being played too, about 11 spectators a game: every event of a played
   game then goes out some 15 times);
   Streams are read by one selector in a child process (frames counted), as separate
   clients would be, so reading them does not slow down the load generator;
3. /healthz p50/p99 while the streams are open and idle, and while the games are played.

Runs with and without streams alternate (`--rounds` pairs, each on new games) so that a
drift in the machine's speed does not favour either; the ratio is the median of the
rounds' ratios.

Targets: /healthz p99 under 100 ms with the streams open, and actions/s with streams at
least 80% of actions/s without.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import selectors
import socket
import statistics
import tempfile
import threading
import time

import requests

from bench.common import cpu_seconds, gunicorn, machine, percentile, start_worker, stop
from bench.moves.actions import measure_http, player, seat_tables, seated_game
from cli.embedded import EmbeddedRedis, free_port
from cli.serve import raise_open_files_limit
from tests.support.waiting import wait_up


def _hold(port: int, plan: list[tuple[str, str]], conn) -> None:
    """In a child process: open every stream of `plan`, report how many opened, then read
    them on one selector until told to stop; report the frames received."""
    sel, opened, refused, frames = selectors.DefaultSelector(), 0, 0, 0
    for path, token in plan:
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(
            f"GET {path} HTTP/1.1\r\nHost: b\r\nAuthorization: Bearer {token}\r\n\r\n".encode()
        )
        if not s.recv(4096).startswith(b"HTTP/1.1 200"):
            refused += 1
            s.close()
            continue
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ)
        opened += 1
    conn.send((opened, refused))
    while not conn.poll():
        for key, _ in sel.select(0.2):
            try:
                data = key.fileobj.recv(65536)
            except BlockingIOError:
                continue
            if not data:
                sel.unregister(key.fileobj)
                key.fileobj.close()
                continue
            frames += data.count(b"\nid: ") + data.startswith(b"id: ")
    conn.send(frames)
    for key in list(sel.get_map().values()):
        key.fileobj.close()


class Holder:
    """Holds many SSE connections open in a separate process (as real clients would be:
    reading them must not slow down this process's load generator) and counts frames."""

    def __init__(self, port: int):
        self.port, self.proc = port, None
        self.opened = self.refused = self.frames = 0
        self.conn, self._child = multiprocessing.Pipe()

    def open_all(self, plan: list[tuple[str, str]]) -> None:
        """Open every stream of `plan` (path, token); return once all are open."""
        self.proc = multiprocessing.get_context("spawn").Process(
            target=_hold, args=(self.port, plan, self._child), daemon=True
        )
        self.proc.start()
        self.opened, self.refused = self.conn.recv()

    def close(self) -> None:
        if self.proc is not None and self.proc.is_alive():
            self.conn.send("stop")
            self.frames = self.conn.recv()
            self.proc.join(10)


def probe_health(base: str, seconds: float, every: float = 0.02) -> list[float]:
    """GET /healthz every `every` s for `seconds`; return the latencies."""
    s, out = requests.Session(), []
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        t0 = time.perf_counter()
        s.get(base + "/healthz", timeout=10).raise_for_status()
        out.append(time.perf_counter() - t0)
        time.sleep(every)
    return out


def health_during(base: str, work) -> tuple[object, list[float]]:
    """Run `work()` while probing /healthz on another thread; return both results."""
    lat: list[float] = []
    done = threading.Event()

    def probe() -> None:
        s = requests.Session()
        while not done.is_set():
            t0 = time.perf_counter()
            s.get(base + "/healthz", timeout=10).raise_for_status()
            lat.append(time.perf_counter() - t0)
            time.sleep(0.02)

    t = threading.Thread(target=probe, daemon=True)
    t.start()
    try:
        result = work()
    finally:
        done.set()
        t.join()
    return result, lat


def ms(values: list[float], p: float) -> str:
    return f"{percentile(values, p) * 1e3:.1f}"


def open_streams(base: str, holder: Holder, tables, streams: int, tokens: int, crowd: bool) -> None:
    """Open `streams` streams over `tokens` players, as the module docstring says."""
    s, rnd = requests.Session(), random.Random(1)
    seated = [(gid, h["Authorization"].split()[1]) for gid, seats in tables for h in seats.values()]
    extra = [player(base, s, f"watcher-{i}")["token"] for i in range(max(0, tokens - len(seated)))]
    owner = {"Authorization": f"Bearer {extra[0] if extra else seated[0][1]}"}
    waiting = [
        s.post(
            f"{base}/v1/games", json={"ruleset": "goblin-market", "players": 6}, headers=owner
        ).json()["id"]
        for _ in range(50)
    ]
    plan: list[tuple[str, str]] = []
    per = streams // tokens
    for gid, token in seated:
        plan += [(f"/v1/games/{gid}/events/stream", token), ("/v1/players/me/feed", token)]
        plan += [(f"/v1/games/{rnd.choice(waiting)}/events/stream", token)] * (per - 2)
    for token in extra:
        watched = rnd.choice(tables)[0] if crowd else rnd.choice(waiting)
        plan += [("/v1/players/me/feed", token), (f"/v1/games/{watched}/events/stream", token)]
        plan += [(f"/v1/games/{rnd.choice(waiting)}/events/stream", token)] * (per - 2)
    holder.open_all(plan[:streams])


class Spent:
    """CPU seconds the API (its gunicorn's master and workers) and Valkey use while
    something runs, per action: what an action costs there, less noisy than actions/s on
    a shared machine. Without pids it measures nothing."""

    def __init__(self, pids: tuple[int, int] | None):
        self.pids = pids
        self.at = self._now()

    def _now(self) -> tuple[float, float]:
        return (cpu_seconds(self.pids[0]), cpu_seconds(self.pids[1])) if self.pids else (0, 0)

    def per_action(self, actions: int) -> tuple[float, float]:
        """µs per action of (API, Valkey) since this was made."""
        now = self._now()
        return tuple((b - a) * 1e6 / max(1, actions) for a, b in zip(self.at, now))  # type: ignore[return-value]


def with_streams(base: str, port: int, args, pids: tuple[int, int] | None = None) -> tuple:
    """Open the streams on freshly seated games, play those games, close the streams;
    return (figures, /healthz idle and busy latencies, holder, seconds to open, CPU per
    action of the API and Valkey while playing)."""
    holder = Holder(port)
    try:
        tables = [
            seated_game(base, requests.Session(), 3 + g % 4, f"s{g}") for g in range(args.games)
        ]
        t0 = time.perf_counter()
        open_streams(base, holder, tables, args.streams, args.tokens, args.crowd)
        opening = time.perf_counter() - t0
        idle = probe_health(base, 5)
        spent = Spent(pids)
        played, busy = health_during(
            base, lambda: measure_http(base, args.clients, args.games, tables=tables)
        )
        cpu = spent.per_action(played.actions)
        time.sleep(1)
        return played, idle, busy, holder, opening, cpu
    finally:
        holder.close()


def stream_rows(base: str, port: int, args, pids: tuple[int, int] | None = None) -> list[str]:
    """Measure with and without streams, alternated; return the table and the verdict
    (`pids`: the API's gunicorn and Valkey, for their CPU per action)."""
    idle = probe_health(base, 5)
    rows, ratios, worst, notes, cpus = [], [], 0.0, [], []
    for _ in range(args.rounds):
        tables = seat_tables(base, args.games)
        spent = Spent(pids)
        without, busy_without = health_during(
            base, lambda: measure_http(base, args.clients, args.games, tables=tables)
        )
        cpu_without = spent.per_action(without.actions)
        played, with_idle, busy_with, holder, opening, cpu = with_streams(base, port, args, pids)
        cpus.append((cpu_without, cpu))
        ratios.append(played.rate / without.rate)
        worst = max(worst, percentile(with_idle, 99), percentile(busy_with, 99))
        rows += [
            f"| 0 | {args.clients} clients playing | {ms(busy_without, 50)} | "
            f"{ms(busy_without, 99)} | {without.rate:.0f} | "
            f"{without.ms(50):.1f} / {without.ms(99):.1f} |",
            f"| {holder.opened} | idle | {ms(with_idle, 50)} | {ms(with_idle, 99)} | | |",
            f"| {holder.opened} | {args.clients} clients playing | {ms(busy_with, 50)} | "
            f"{ms(busy_with, 99)} | {played.rate:.0f} | "
            f"{played.ms(50):.1f} / {played.ms(99):.1f} |",
        ]
        notes.append(
            f"{holder.opened} streams opened over {args.tokens} tokens in {opening:.1f} s "
            f"({holder.refused} refused); {holder.frames} frames delivered while playing"
        )
    return [
        "| streams open | load | /healthz p50 ms | p99 ms | actions/s | action p50 / p99 ms |",
        "| --- | --- | --- | --- | --- | --- |",
        f"| 0 | idle | {ms(idle, 50)} | {ms(idle, 99)} | | |",
        *rows,
        "",
        *[f"- round {i}: {note}" for i, note in enumerate(notes, start=1)],
        f"- with streams open: /healthz p99 at most {worst * 1e3:.1f} ms (target < 100 ms)",
        "- actions/s with streams / without, per round: "
        + ", ".join(f"{r:.0%}" for r in ratios)
        + f"; median {statistics.median(ratios):.0%} (target >= 80%)",
        *(
            [
                "- CPU per action without / with streams, per round (API; Valkey): "
                + ", ".join(
                    f"{a[0]:.0f} / {b[0]:.0f} µs ({a[1]:.0f} / {b[1]:.0f})" for a, b in cpus
                )
            ]
            if pids
            else []
        ),
    ]


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--streams", type=int, default=1000)
    ap.add_argument("--tokens", type=int, default=250)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--rounds", type=int, default=2, help="without/with pairs, alternated")
    ap.add_argument(
        "--crowd", action="store_true", help="the other tokens also watch the games played"
    )
    return ap


def main() -> None:
    args = parser().parse_args()
    raise_open_files_limit()
    server = EmbeddedRedis(tempfile.mkdtemp(prefix="mf-streams-"), port=free_port()).start()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    procs = [gunicorn("cli.wsgi:app", port, server.url), start_worker(server.url)]
    try:
        wait_up(base + "/healthz")
        m = machine()
        print(f"machine: {m['cores']} cores, {m['cpu']}, Python {m['python']}, {m['date']}")
        pids = (procs[0].pid, server.process.pid)
        print("\n".join(stream_rows(base, port, args, pids)))
    finally:
        stop(procs)
        server.stop()


if __name__ == "__main__":
    main()

"""Server CPU per move when every seat has its table open, the web client's way: before
(each table reads `GET /games/{id}`, and `GET .../legal` when its seat owes, after each
append its stream tells of) and now (each table draws from its stream's `table` frames,
`?with=table`, and reads nothing). Also the one-call bots of bench/moves/one_call.py, whose
streams ask for no table frame, as a check that they pay nothing for them.

    python -m bench.streams.tables [--games 8] [--seats 4] [--moves 40] [--rounds 3]
                                 [--b-root CHECKOUT] [--bots-only]

Goblin Market games; in each, one mover plays the seat that owes, from the legal actions
its table has (read or framed), and waits until every seat's table has drawn the new
version before the next move (as people at a table do: each event is drawn before the
next move), so the reads are one per seat per append, not merged by a burst. Rounds
alternate the two patterns (the machine's speed drifts); the figures are the medians of
the API process's CPU (gunicorn master and workers) and Valkey's per move, with the load
average. `--b-root` also runs the bots against another checkout's API (e.g. main,
`git worktree add --detach /tmp/main main`) for a before/after of the bots' cost.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import selectors
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import requests

from bench.common import ROOT, cpu_seconds, gunicorn, settle, stop
from bench.moves.actions import measure_http, seat_tables
from cli.embedded import EmbeddedRedis, free_port
from games.schemas import random_action
from tests.reliability.load import new_table
from tests.support.waiting import wait_up

WAIT_S = 10.0


class SeatTable:
    """One seat's open table: its stream (plain or `?with=table`) and what it drew."""

    def __init__(self, base: str, gid: str, token: str, framed: bool):
        url = urlsplit(base)
        self.sock = socket.create_connection((url.hostname, url.port or 80))
        query = "?with=table" if framed else ""
        self.sock.sendall(
            f"GET /v1/games/{gid}/events/stream{query} HTTP/1.0\r\nHost: bench\r\n"
            f"Authorization: Bearer {token}\r\n\r\n".encode()
        )
        self.base, self.gid, self.token, self.framed = base, gid, token, framed
        self.buffer, self.head = b"", True
        self.version, self.legal, self.reads = 0, None, 0

    def fileno(self) -> int:
        return self.sock.fileno()

    def read(self, session: requests.Session) -> bool:
        data = self.sock.recv(1 << 20)
        if not data:
            return False
        self.buffer += data
        if self.head:
            if b"\r\n\r\n" not in self.buffer:
                return True
            head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
            assert head.startswith(b"HTTP/1.1 200") or head.startswith(b"HTTP/1.0 200"), head
            self.head = False
        *blocks, self.buffer = self.buffer.split(b"\n\n")
        for block in blocks:
            event, payload = None, None
            for line in block.split(b"\n"):
                if line.startswith(b"event: "):
                    event = line[7:].decode()
                elif line.startswith(b"data: "):
                    payload = line[6:]
            if payload is None:
                continue
            if self.framed and event == "table":
                frame = json.loads(payload)
                self.version, self.legal = frame["version"], frame["legal"]
            elif not self.framed and event not in ("owes", "chat", "receipt", "table"):
                shown = json.loads(payload)
                if "owes" in shown:  # the last event of an append: read the table again
                    self._read_table(session, shown["seq"], bool(shown["owes"]))
        return True

    def _read_table(self, session: requests.Session, seq: int, owes: bool) -> None:
        """What the web client did after each event: GET the game, and its legal actions
        when its seat owes a decision."""
        headers = {"Authorization": f"Bearer {self.token}"}
        url = f"{self.base}/v1/games/{self.gid}"
        game = session.get(url, headers=headers, timeout=10).json()
        self.reads += 1
        legal = None
        if owes and game["status"] == "active":
            legal = session.get(f"{url}/legal", headers=headers, timeout=10).json()
            self.reads += 1
        self.version, self.legal = max(seq, game["version"]), legal


def play(base: str, table, framed: bool, moves: int, seed: int, out: list[int]) -> None:
    """Play up to `moves` moves of one game, each after every seat's table drew the last."""
    rnd, session = random.Random(seed), requests.Session()
    seats = {s: SeatTable(base, table.gid, tok, framed) for s, tok in table.tokens.items()}
    selector = selectors.DefaultSelector()
    for t in seats.values():
        selector.register(t, selectors.EVENT_READ)
    version, made = requests.get(f"{base}/v1/games/{table.gid}", timeout=10).json()["version"], 0
    try:
        while made < moves:
            ends = time.monotonic() + WAIT_S
            while any(t.version < version for t in seats.values()):
                if time.monotonic() > ends:
                    raise TimeoutError(f"a table of {table.gid} never drew version {version}")
                for key, _ in selector.select(0.5):
                    if not key.fileobj.read(session):
                        selector.unregister(key.fileobj)
            owing = [(s, t) for s, t in seats.items() if t.legal and t.legal["actions"]]
            if not owing:
                break  # the game is over
            seat, t = owing[0]
            action = random_action(t.legal["actions"], rnd)
            answer = session.post(
                f"{base}/v1/games/{table.gid}/actions",
                json=action,
                headers={"Authorization": f"Bearer {t.token}"},
                timeout=10,
            )
            answer.raise_for_status()
            version, made = answer.json()["version"], made + 1
    finally:
        selector.close()
        for t in seats.values():
            t.sock.close()
    out.append(made)


def tables_round(base: str, framed: bool, args, pids: dict[str, int], seed: int) -> dict:
    tables = [
        new_table(base, "goblin-market", args.seats, f"ts{seed}-{i}") for i in range(args.games)
    ]
    made: list[int] = []
    before = {k: cpu_seconds(p) for k, p in pids.items()}
    threads = [
        threading.Thread(target=play, args=(base, t, framed, args.moves, seed + i, made))
        for i, t in enumerate(tables)
    ]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    moves = sum(made)
    spent = {k: (cpu_seconds(p) - before[k]) * 1e3 / max(1, moves) for k, p in pids.items()}
    return {"moves": moves, **spent}


def bots_round(base: str, pids: dict[str, int], games: int) -> dict:
    seated = seat_tables(base, games)
    before = {k: cpu_seconds(p) for k, p in pids.items()}
    run = measure_http(base, 8, games, seated, one_call=True)
    spent = {k: (cpu_seconds(p) - before[k]) * 1e3 / max(1, run.actions) for k, p in pids.items()}
    return {"moves": run.actions, **spent}


def stack(root: Path):
    server = EmbeddedRedis(tempfile.mkdtemp(prefix="mf-bench-"), port=free_port()).start()
    port = free_port()
    api = gunicorn("cli.wsgi:app", port, server.url, root=root)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(5):  # a loaded machine answers its first calls slowly
            try:
                wait_up(base + "/healthz", 60)
                break
            except requests.RequestException:
                continue
        settle(api.pid)
    except BaseException:
        stop([api])
        server.stop()
        raise
    return server, api, base, {"api": api.pid, "valkey": server.process.pid}


def median_row(name: str, runs: list[dict]) -> str:
    api = statistics.median(r["api"] for r in runs)
    valkey = statistics.median(r["valkey"] for r in runs)
    each = ", ".join(f"{r['api']:.2f}" for r in runs)
    moves = sum(r["moves"] for r in runs)
    return f"| {name} | {moves} | {api:.2f} | {valkey:.2f} | {each} |"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--moves", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--bot-games", type=int, default=16)
    ap.add_argument("--b-root", help="another checkout whose bots' cost to measure too")
    ap.add_argument("--bots-only", action="store_true", help="only the one-call bots' rows")
    args = ap.parse_args()
    rows = {"reads": [], "frames": [], "bots": [], "bots-b": []}
    load_before = os.getloadavg()
    server, api, base, pids = stack(ROOT)
    other = None
    try:
        other = stack(Path(args.b_root)) if args.b_root else None
        for r in range(args.rounds):
            if not args.bots_only:
                rows["reads"].append(tables_round(base, False, args, pids, 100 * r))
                rows["frames"].append(tables_round(base, True, args, pids, 100 * r + 50))
            bots = [("bots", base, pids), *([("bots-b", other[2], other[3])] if other else [])]
            for key, url, its in bots[:: 1 if r % 2 == 0 else -1]:  # which goes first alternates
                rows[key].append(bots_round(url, its, args.bot_games))
    finally:
        for s, a in [(server, api), *([other[:2]] if other else [])]:
            stop([a])
            s.stop()
    load_after = os.getloadavg()
    if not args.bots_only:
        print(f"{args.games} games of {args.seats} seats, each seat's table open")
    print(f"{args.rounds} alternated rounds")
    print("| pattern | moves | API CPU ms/move (median) | Valkey ms/move | API per round |")
    print("| --- | --- | --- | --- | --- |")
    names = {
        "reads": "tables read the game after each append (before)",
        "frames": "tables draw from `table` frames (now)",
        "bots": "one-call bots, plain streams (this checkout)",
        "bots-b": f"one-call bots, plain streams ({args.b_root})",
    }
    for key, runs in rows.items():
        if runs:
            print(median_row(names[key], runs))
    print(f"load average: before {load_before[0]:.2f}, after {load_after[0]:.2f} (1 min)")


if __name__ == "__main__":
    main()

"""CPU per action and per job, by process: the figures the capacity model of
docs/architecture.md ("Capacity") rests on.

    python -m bench.moves.capacity [--clients 8] [--games 16] [--sealed 12] [--timeouts 24]

Starts an embedded Valkey (appendfsync always), the API under gunicorn (2 gevent
processes) and one `marketfold worker`, as `marketfold serve` does, then measures from
/proc the CPU each spends:

1. idle, for 5 s: what a worker's sweeper (4 claims a second, a heartbeat) and RQ's
   scheduler cost while nothing happens, and the API's and Valkey's idle cost;
2. per action: `--games` Goblin Market games played to the end over HTTP by `--clients`
   threads (each turn a GET of the legal actions and a POST; no jobs: Goblin Market has
   no simultaneous phase and nobody misses a deadline);
3. per reveal job: `--sealed` Sorcerous Futures tables (4 seats) brought to a closed
   auction's sealed bids, then every bid sent: the worker resolves each phase (one
   `resolve` job, one append); its CPU over that window, less its idle rate;
4. per default: `--timeouts` Goblin Market games (3 seats) on 1 s deadlines left alone
   until each is abandoned: every missed decision is one `expire` job and one append.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import redis
import requests

from bench.common import cpu_seconds, gunicorn, machine, start_worker, stop
from bench.moves.actions import measure_http, player, seat_tables
from cli.embedded import EmbeddedRedis, free_port
from events.recorder import RedisRecorder
from events.repository import GameRepository
from tests.support.waiting import wait_for, wait_up

IDLE_S = 5.0


def cpu(pids: dict[str, int]) -> dict[str, float]:
    return {name: cpu_seconds(pid) for name, pid in pids.items()}


def spent(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    return {k: after[k] - before[k] for k in before}


def seated(base: str, s: requests.Session, ruleset: str, n: int, tag: str, **body) -> tuple:
    """A game of `ruleset` for n new players, all seated: (id, seat -> auth header)."""
    tokens = [player(base, s, f"{tag}-{i}")["token"] for i in range(n)]
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    body = {"ruleset": ruleset, "players": n, **body}
    res = s.post(f"{base}/v1/games", json=body, headers=auth[0])
    gid = res.json()["id"]
    for h in auth:
        s.post(f"{base}/v1/games/{gid}/join", headers=h).raise_for_status()
    return gid, {s.get(f"{base}/v1/games/{gid}", headers=h).json()["you"]: h for h in auth}


def table(base: str, ruleset: str, n: int, tag: str, **body) -> tuple:
    return seated(base, requests.Session(), ruleset, n, tag, **body)


def to_sealed(base: str, s: requests.Session, gid: str, seats: dict) -> dict:
    """Act for whoever owes until a closed auction's sealed bids are owed by all four
    (as tests/workers/helpers.py does through the test client)."""
    while True:
        game = s.get(f"{base}/v1/games/{gid}").json()
        if {o["kind"] for o in game["owed"]} == {"sealed_bid"} and len(game["owed"]) == 4:
            return game
        if not game["owed"]:
            time.sleep(0.02)
            continue
        seat = game["owed"][0]["seat"]
        legal = s.get(f"{base}/v1/games/{gid}/legal", headers=seats[seat]).json()
        actions = {a["type"]: a for a in legal["actions"]}
        if "random_crowns" in actions:
            action = {"type": "random_crowns"}
        elif "start_auction" in actions:
            choices = actions["start_auction"]["choices"]
            action = next(c for c in choices if c["format"] == "closed")
        else:
            action = {"type": "pass"} if "pass" in actions else actions[next(iter(actions))]
        s.post(f"{base}/v1/games/{gid}/actions", json=action, headers=seats[seat])


def commands(store: GameRepository, gids: list[str], kind: str) -> int:
    return sum(
        1 for gid in gids for e in store.read(gid) if (e.get("command") or {}).get("type") == kind
    )


def run(clients: int, games: int, sealed: int, timeouts: int) -> list[str]:
    tmp = Path(tempfile.mkdtemp(prefix="mf-capacity-"))
    server = EmbeddedRedis(tmp / "valkey", port=free_port()).start()
    port = free_port()
    procs = [gunicorn("cli.wsgi:app", port, server.url), start_worker(server.url)]
    base = f"http://127.0.0.1:{port}"
    store = GameRepository(RedisRecorder(redis.Redis.from_url(server.url)))
    pids = {"api": procs[0].pid, "valkey": server.process.pid, "worker": procs[1].pid}
    try:
        wait_up(base + "/healthz")
        seat_tables(base, 2)  # the API's processes and helpers started and warm
        time.sleep(3.0)
        t0, c0 = time.monotonic(), cpu(pids)
        time.sleep(IDLE_S)
        idle = {k: v / (time.monotonic() - t0) for k, v in spent(c0, cpu(pids)).items()}

        tables = seat_tables(base, games)
        c0 = cpu(pids)
        fig = measure_http(base, clients, games, tables)
        per_action = {k: v / fig.actions for k, v in spent(c0, cpu(pids)).items()}

        with ThreadPoolExecutor(8) as pool:
            made = [table(base, "sorcerous-futures", 4, f"s{i}") for i in range(sealed)]
            phases = list(pool.map(lambda t: to_sealed(base, requests.Session(), *t), made))
        gids = [gid for gid, _ in made]
        before = commands(store, gids, "resolve")
        s = requests.Session()
        t0, c0 = time.monotonic(), cpu(pids)
        for (gid, seats), game in zip(made, phases, strict=True):
            for n, owed in enumerate(game["owed"]):
                body = {"type": "sealed_bid", "amount": n}
                s.post(f"{base}/v1/games/{gid}/actions", json=body, headers=seats[owed["seat"]])
        wait_for(lambda: commands(store, gids, "resolve") >= before + sealed, 60, every=0.2)
        used, took = spent(c0, cpu(pids)), time.monotonic() - t0
        reveals = commands(store, gids, "resolve") - before
        per_reveal = (used["worker"] - idle["worker"] * took) / reveals

        with ThreadPoolExecutor(8) as pool:
            late = [
                gid
                for gid, _ in pool.map(
                    lambda i: table(base, "goblin-market", 3, f"t{i}", decision_timeout_s=1),
                    range(timeouts),
                )
            ]
        t0, c0 = time.monotonic(), cpu(pids)
        finished = lambda: all(  # noqa: E731
            requests.get(f"{base}/v1/games/{g}").json()["status"] == "finished" for g in late
        )
        wait_for(finished, 120, every=0.2)
        used, took = spent(c0, cpu(pids)), time.monotonic() - t0
        defaults = commands(store, late, "expire")
        per_default = (used["worker"] - idle["worker"] * took) / defaults
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        rows = [
            f"load average at the end: {load}",
            "",
            "| what | API (gunicorn, 2 processes) | Valkey | worker |",
            "| --- | --- | --- | --- |",
            "| idle, CPU ms per second | "
            + " | ".join(f"{idle[k] * 1e3:.1f}" for k in ("api", "valkey", "worker"))
            + " |",
            f"| per action ({fig.actions} actions, {clients} clients, {fig.rate:.0f}/s), ms | "
            + " | ".join(f"{per_action[k] * 1e3:.2f}" for k in ("api", "valkey", "worker"))
            + " |",
            f"| per reveal job ({reveals} reveals), worker ms less its idle | | | "
            f"{per_reveal * 1e3:.2f} |",
            f"| per default ({defaults} missed deadlines), worker ms less its idle | | | "
            f"{per_default * 1e3:.2f} |",
        ]
        print("\n".join(rows), flush=True)
        return rows
    finally:
        stop(procs)
        server.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--sealed", type=int, default=12)
    ap.add_argument("--timeouts", type=int, default=24)
    args = ap.parse_args()
    m = machine()
    print(f"machine: {m['cores']} cores, {m['cpu']}; Python {m['python']}; {m['date']}")
    print(f"load average at the start: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    t0 = time.monotonic()
    run(args.clients, args.games, args.sealed, args.timeouts)
    print(f"(measured in {time.monotonic() - t0:.0f} s)")


if __name__ == "__main__":
    main()

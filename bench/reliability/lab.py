"""The lab deployment (cli.lab) measured against one host, and its failover times.

    python -m bench.reliability.lab [--clients 8] [--games 16] [--rounds 2]

Starts the lab (separate hosts in network namespaces: a 3-master Valkey Cluster with a
replica each, the queues' Valkey with a replica under three sentinels, two API hosts of
one gunicorn process each behind HAProxy, two worker hosts) and, beside it, one host as
`marketfold serve` runs it (embedded Valkey with appendfsync always, gunicorn with two
processes, one worker). Then:

1. full Goblin Market games over HTTP on each in turn, `--rounds` times: actions/s and
   the POST's p50/p99. Every host shares the same two cores, so this shows what the
   deployment costs (HAProxy, the cluster client, an append answered only once a replica
   has it), not the scale it gives on separate machines;
2. failover of a cluster master: kill -9 the master of a game's slot; the seconds until
   its replica is master, until the killed node (started again then, as a supervisor
   would) is the new master's replica, and until the game's next action is taken (with
   `APPEND_REPLICAS=1` that waits for a replica);
3. failover of the queues' master: bring a Sorcerous Futures game to a sealed bid, kill
   -9 the queues' master, submit every bid; the seconds until the sentinels name the
   replica, and until the reveal (the worker's resolution, which goes through the
   queue) is in the log.

Needs what the lab needs (root, network namespaces, HAProxy: `apt-get install haproxy`).
Figures on a shared machine are noisy; run it on an idle one.
"""

from __future__ import annotations

import argparse
import random
import shutil
import signal
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import requests

from bench.common import gunicorn, machine, start_worker, stop
from bench.moves.actions import measure_http
from cli import lab_valkey
from cli.embedded import EmbeddedRedis, free_port
from cli.lab import Lab, why_not
from events import keys
from games.schemas import random_action
from tests.support.waiting import wait_for, wait_up


def seat(base: str, ruleset: str, n: int, tag: str) -> tuple[str, dict[int, dict]]:
    """A started game of `n` new players; return (id, seat -> auth header)."""
    s = requests.Session()
    people = [s.post(f"{base}/v1/players", json={"name": f"{tag}{i}"}).json() for i in range(n)]
    heads = [{"Authorization": f"Bearer {p['token']}"} for p in people]
    gid = s.post(f"{base}/v1/games", json={"ruleset": ruleset, "players": n}, headers=heads[0])
    gid = gid.json()["id"]
    for h in heads:
        s.post(f"{base}/v1/games/{gid}/join", headers=h).raise_for_status()
    return gid, {s.get(f"{base}/v1/games/{gid}", headers=h).json()["you"]: h for h in heads}


def act(base: str, gid: str, seats: dict, rnd: random.Random, seat_no: int | None = None) -> bool:
    """One random legal action (by `seat_no`, else by someone who owes one); True if it
    was taken (2xx), False on any failure or refusal."""
    try:
        game = requests.get(f"{base}/v1/games/{gid}", timeout=5)
        if game.status_code != 200 or not game.json()["owed"]:
            return False
        who = seat_no if seat_no is not None else rnd.choice(game.json()["owed"])["seat"]
        legal = requests.get(f"{base}/v1/games/{gid}/legal", headers=seats[who], timeout=5)
        if legal.status_code != 200 or not legal.json()["actions"]:
            return False
        action = random_action(legal.json()["actions"], rnd)
        headers = {**seats[who], "Idempotency-Key": uuid.uuid4().hex}
        res = requests.post(
            f"{base}/v1/games/{gid}/actions", json=action, headers=headers, timeout=35
        )
        return res.status_code in (201, 202)
    except requests.RequestException:
        return False


def promoted(lab: Lab, key: str, victim: str) -> bool:
    try:
        return lab.store_master_of(key) != victim
    except Exception:  # the cluster is between masters
        return False


def store_failover(lab: Lab) -> tuple[float, float, float]:
    """Kill the master of a game's slot; return the seconds until its replica is master,
    until the killed node, started again then (as a supervisor would), is the new
    master's replica in sync, and until that game's next action is taken (with
    APPEND_REPLICAS=1 the promoted master's appends wait for a replica)."""
    rnd = random.Random(1)
    gid, seats = seat(lab.url, "goblin-market", 3, "fs")
    for _ in range(5):
        act(lab.url, gid, seats, rnd)
    key = keys.game_events(gid)
    victim = lab.store_master_of(key)
    lab.kill(victim)
    t0 = time.monotonic()
    wait_for(lambda: promoted(lab, key, victim), 60, what="the replica's promotion")
    promotion = time.monotonic() - t0
    lab.start(victim)
    address = lab.addr(victim)
    wait_for(
        lambda: lab_valkey.role(address) == "slave" and lab_valkey.replica_synced(address),
        60,
        what="the rejoin",
    )
    rejoined = time.monotonic() - t0
    wait_for(lambda: act(lab.url, gid, seats, rnd), 60, what="an action taken")
    return promotion, rejoined, time.monotonic() - t0


def queue_failover(lab: Lab) -> tuple[float, float]:
    """Kill the queues' master with a sealed bid open and submit every bid; return the
    seconds until the sentinels name another master, and until the reveal is logged."""
    rnd = random.Random(2)
    gid, seats = seat(lab.url, "sorcerous-futures", 3, "fq")
    for _ in range(2000):
        game = requests.get(f"{lab.url}/v1/games/{gid}").json()
        owed = game["owed"]
        if len(owed) > 1 and all(o["simultaneous"] for o in owed):
            break
        act(lab.url, gid, seats, rnd)
    else:
        raise RuntimeError("no sealed phase came")
    version, victim = game["version"], lab.queue_master()
    promotion: list[float] = []
    lab.kill(victim)
    t0 = time.monotonic()

    def watch() -> None:
        wait_for(lambda: lab.queue_master() not in (victim, None), 60, what="the promotion")
        promotion.append(time.monotonic() - t0)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    for o in owed:
        wait_for(lambda o=o: act(lab.url, gid, seats, rnd, o["seat"]), 60, what="a bid taken")

    def revealed() -> bool:  # the worker appends the phase's resolution
        url = f"{lab.url}/v1/games/{gid}/events?after={version}"
        return any(e.get("actor") == "system" for e in requests.get(url).json()["events"])

    wait_for(revealed, 60, what="the reveal")
    took = time.monotonic() - t0
    watcher.join(60)
    lab.start(victim)
    return promotion[0], took


def run(clients: int, games: int, rounds: int) -> list[str]:
    tmp = Path(tempfile.mkdtemp(prefix="mf-lab-bench-"))
    lab = Lab("bench", tmp / "lab", "10.213.5")
    one = EmbeddedRedis(tmp / "one", port=free_port(), appendfsync="always")
    procs = []
    try:
        lab.up()
        one.start()
        port = free_port()
        procs += [gunicorn("cli.wsgi:app", port, one.url), start_worker(one.url)]
        single = f"http://127.0.0.1:{port}"
        wait_up(single + "/healthz")
        rows = [
            f"{clients} clients, {games} Goblin Market games per round",
            "| round | deployment | actions | actions/s | p50 ms | p99 ms |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        print("\n".join(rows), flush=True)
        for r in range(1, rounds + 1):
            for name, base in (
                ("one host", single),
                ("lab: 2 API hosts", lab.url),
            ):
                fig = measure_http(base, clients, games)
                rows.append(
                    f"| {r} | {name} | {fig.actions} | {fig.rate:.0f} | {fig.ms(50):.1f} | "
                    f"{fig.ms(99):.1f} |"
                )
                print(rows[-1], flush=True)
        promotion, rejoined, action = store_failover(lab)
        rows.append(
            f"\ncluster master killed: its replica is master after {promotion:.2f} s; the "
            f"killed node, started again then, is its replica after {rejoined:.2f} s; the "
            f"first action on its game is taken after {action:.2f} s"
        )
        print(rows[-1], flush=True)
        promotion, reveal = queue_failover(lab)
        rows.append(
            f"queues' master killed with a sealed bid open: its replica is master after "
            f"{promotion:.2f} s; the bids are revealed after {reveal:.2f} s"
        )
        print(rows[-1], flush=True)
        return rows
    finally:
        stop(procs)
        one.stop()
        lab.down()
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # so that the lab is taken down
    reason = why_not()
    if reason:
        sys.exit(f"bench/reliability/lab.py: the lab cannot run here: {reason}")
    m = machine()
    print(f"machine: {m['cores']} cores, {m['cpu']}; Python {m['python']}; {m['date']}")
    t0 = time.monotonic()
    run(args.clients, args.games, args.rounds)
    print(f"(measured in {time.monotonic() - t0:.0f} s)")


if __name__ == "__main__":
    main()

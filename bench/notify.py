"""Notifications under load: turn e-mails to away players, and what subscriptions cost.

    python bench/notify.py [--players 30] [--seconds 30] [--delay 1] [--think 0.05]

Serves the API under gunicorn (2 processes) and one `marketfold worker` on an embedded
Valkey, with a real SMTP server on loopback (aiosmtpd) as the mail server.

1. Away players: `--players` players (tables of 3, Goblin Market, 10-minute decisions),
   every one with a verified address and no open stream. A player acts only once the
   e-mail telling of its turn has arrived, so every decision is mailed. Printed: from
   "the decision became yours" (the note's time, written with the append) to the mail's
   arrival at the SMTP server, p50 / p99 / max, also less the "not seen live" delay
   (`--delay`, NOTIFY_LIVE_DELAY_S); and the worker's CPU per mailed notification.
2. Action rate: the same tables played as fast as they can (`--think` s per action),
   `--seconds` with every player subscribed (their turns are answered before the delay,
   so the worker plans, checks and drops them) and `--seconds` without any address.

Webhooks are not measured here yet (that channel is not on main when this was written).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402
import requests  # noqa: E402
from aiosmtpd.controller import Controller  # noqa: E402

from bench.common import cpu_seconds, gunicorn, machine, percentile, stop, wait_up  # noqa: E402
from cli.embedded import EmbeddedRedis, free_port  # noqa: E402
from events import codec, keys  # noqa: E402
from games.schemas import random_action  # noqa: E402
from service.notify import inbox  # noqa: E402

TABLE = 3


class Sink:
    """aiosmtpd's handler: the notification id and arrival time of each mail."""

    def __init__(self) -> None:
        self.arrived: list[tuple[str, str, float]] = []  # (to, notification id, time)
        self.cond = threading.Condition()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        at = time.time()
        head = envelope.content.split(b"\r\n\r\n", 1)[0].decode("utf-8", "replace")
        nid = next(
            (
                line.split(":", 1)[1].strip()
                for line in head.splitlines()
                if line.lower().startswith("x-marketfold-notification:")
            ),
            "",
        )
        with self.cond:
            self.arrived.append((envelope.rcpt_tos[0], nid, at))
            self.cond.notify_all()
        return "250 OK"


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def tables(base: str, players: int, prefix: str) -> list[tuple[str, list[dict]]]:
    s = requests.Session()
    out = []
    for t in range(players // TABLE):
        seated = [
            s.post(f"{base}/v1/players", json={"name": f"{prefix}{t}_{i}"}).json()
            for i in range(TABLE)
        ]
        body = {"ruleset": "goblin-market", "players": TABLE, "decision_timeout_s": 600}
        gid = s.post(f"{base}/v1/games", json=body, headers=auth(seated[0]["token"])).json()["id"]
        for p in seated:
            s.post(f"{base}/v1/games/{gid}/join", headers=auth(p["token"]))
        out.append((gid, seated))
    return out


def subscribe(r: redis.Redis, players: list[dict]) -> None:
    """Give each player a verified address (the verification link is tested elsewhere)."""
    for p in players:
        settings = {"email": {"address": f"{p['id']}@bench.example", "verified": True}}
        r.set(keys.player_notify(p["id"]), json.dumps(settings))


def act_owed(s: requests.Session, base: str, gid: str, seated: list[dict], rnd, only=None) -> int:
    """Play one owed decision of the game (of player `only` if given); return 1 if played."""
    game = s.get(f"{base}/v1/games/{gid}").json()
    if game["status"] != "active" or not game["owed"]:
        return 0
    by_id = {p["id"]: p for p in seated}
    for o in game["owed"]:
        player = by_id[game["seats"][o["seat"]]["player"]]
        if only is not None and player["id"] != only:
            continue
        legal = s.get(f"{base}/v1/games/{gid}/legal", headers=auth(player["token"])).json()
        action = random_action(legal["actions"], rnd)
        res = s.post(f"{base}/v1/games/{gid}/actions", json=action, headers=auth(player["token"]))
        return 1 if res.status_code in (201, 202) else 0
    return 0


def away(base: str, r: redis.Redis, sink: Sink, players: int, seconds: float, worker: int):
    """Phase 1: players act only on their turn's mail; return the latencies (s)."""
    games = tables(base, players, "away")
    subscribe(r, [p for _, seated in games for p in seated])
    for gid, seated in games:  # their first turns were planned before the addresses
        for p in seated:
            for _, fields in r.xrange(keys.player_feed(p["id"])):
                note = json.loads(fields[b"n"])
                if note["type"] == "your_turn":
                    r.zadd(keys.deadlines(), {f"notify|{p['id']}|{note['id']}": time.time()})
    addresses = {f"{p['id']}@bench.example": (gid, p["id"]) for gid, ps in games for p in ps}
    seated_of = {gid: ps for gid, ps in games}
    start = time.time()  # the first turns, planned again now, are not measured
    cpu0, ends, seen, mailed = cpu_seconds(worker), start + seconds, 0, 0
    latencies: list[float] = []
    s, rnd = requests.Session(), random.Random(1)
    store = SimpleNamespace(redis=r)  # what inbox.note reads through
    while time.time() < ends:
        with sink.cond:
            sink.cond.wait_for(lambda: len(sink.arrived) > seen, timeout=1)
            fresh, seen = sink.arrived[seen:], len(sink.arrived)
        for to, nid, at in fresh:
            note = inbox.find(store, addresses[to][1], nid) if to in addresses else None
            if note is None or note["type"] != "your_turn":
                continue
            mailed += 1
            made = codec.parse_time(note["at"]).timestamp()
            if made >= start:
                latencies.append(at - made)
            gid, pid = addresses[to]
            act_owed(s, base, gid, seated_of[gid], rnd, only=pid)
    return latencies, mailed, cpu_seconds(worker) - cpu0


def rate(base: str, r: redis.Redis, players: int, seconds: float, think: float, subscribed: bool):
    """Phase 2: actions per second of tables played as fast as they can."""
    games = tables(base, players, "fast" + ("s" if subscribed else "n"))
    if subscribed:
        subscribe(r, [p for _, seated in games for p in seated])
    count, lock, ends = [0], threading.Lock(), time.time() + seconds

    def play(gid: str, seated: list[dict], seed: int) -> None:
        s, rnd = requests.Session(), random.Random(seed)
        while time.time() < ends:
            done = act_owed(s, base, gid, seated, rnd)
            with lock:
                count[0] += done
            if not done:
                time.sleep(0.2)  # finished, or a phase being resolved
            time.sleep(think)

    threads = [threading.Thread(target=play, args=(g, ps, i)) for i, (g, ps) in enumerate(games)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return count[0] / seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=30, help="players (tables of 3)")
    ap.add_argument("--seconds", type=float, default=30, help="each phase's length")
    ap.add_argument("--delay", type=float, default=1, help="NOTIFY_LIVE_DELAY_S")
    ap.add_argument("--think", type=float, default=0.05, help="s between a table's actions")
    args = ap.parse_args()
    server = EmbeddedRedis(tempfile.mkdtemp(prefix="mf-notify-"), port=free_port()).start()
    sink = Sink()
    smtp_port = free_port()
    smtp = Controller(sink, hostname="127.0.0.1", port=smtp_port)
    smtp.start()
    env = {
        "MARKETFOLD_SMTP_URL": f"smtp://127.0.0.1:{smtp_port}",
        "MARKETFOLD_NOTIFY_LIVE_DELAY_S": str(args.delay),
        "MARKETFOLD_PUBLIC_URL": "http://bench.example",
        "MARKETFOLD_ACCESS_LOG": "false",  # no line per request
    }
    port = free_port()
    procs = [gunicorn("cli.wsgi:app", port, server.url, workers=2, **env)]
    worker = subprocess.Popen(
        [sys.executable, "-m", "cli", "worker"],
        env={**os.environ, **env, "REDIS_URL": server.url, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    procs.append(worker)
    base = f"http://127.0.0.1:{port}"
    r = redis.Redis.from_url(server.url)
    try:
        wait_up(base + "/healthz")
        print(f"# bench/notify.py {vars(args)} on {machine()}")
        latencies, mailed, cpu = away(base, r, sink, args.players, args.seconds, worker.pid)
        beyond = [x - args.delay for x in latencies]
        if latencies:
            print(
                f"away players: {mailed} turn mails in {args.seconds:.0f} s "
                f"({len(latencies)} of turns that began in the run measured)"
            )
            print(
                "  decision became yours -> mail at the SMTP server: "
                f"p50 {percentile(latencies, 50):.2f} s, p99 {percentile(latencies, 99):.2f} s, "
                f"max {max(latencies):.2f} s"
            )
            print(
                f"  beyond the {args.delay:g} s not-seen-live delay: "
                f"p50 {percentile(beyond, 50):.2f} s, p99 {percentile(beyond, 99):.2f} s"
            )
            print(
                f"  worker CPU per mailed notification: {cpu / mailed * 1e3:.1f} ms "
                "(its plan, delivery and the SMTP exchange; the player's actions' jobs too)"
            )
        without = rate(base, r, args.players, args.seconds, args.think, subscribed=False)
        with_ = rate(base, r, args.players, args.seconds, args.think, subscribed=True)
        print(
            f"action rate: {without:.1f}/s without subscriptions, {with_:.1f}/s with "
            f"({with_ / without * 100:.0f}%)"
        )
    finally:
        stop(procs)
        smtp.stop()
        server.stop()


if __name__ == "__main__":
    main()

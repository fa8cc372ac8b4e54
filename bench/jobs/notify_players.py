"""The players of bench/jobs/notify.py: tables set up over HTTP, the away players who act on
their messages (phase 1), and what that phase prints. See bench/jobs/notify.py."""

from __future__ import annotations

import heapq
import itertools
import json
import queue
import random
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import redis
import requests

from bench.common import cpu_seconds, own_cpu_seconds, percentile
from bench.jobs.receivers import WebhookServer, address
from events import codec, keys, notify_keys
from games.schemas import random_action
from service.notify import inbox
from stores.inbox import RedisInbox

TABLE = 3
CHANNELS = ("email", "webhook")
ONE_CHANNEL_WAIT_S = 60  # a player whose second message never comes acts this long after
SETUP_THREADS = 8


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Setup:
    """Creates players and tables over HTTP, a few requests at a time."""

    def __init__(self, base: str, hooks: WebhookServer, r: redis.Redis) -> None:
        self.base, self.hooks, self.r = base, hooks, r
        self.local = threading.local()

    def session(self) -> requests.Session:
        if not hasattr(self.local, "s"):
            self.local.s = requests.Session()
        return self.local.s

    def player(self, name: str, subscribed: bool) -> dict:
        s = self.session()
        p = s.post(f"{self.base}/v1/players", json={"name": name}).json()
        if subscribed:
            # a verified address (the verification link is tested elsewhere) ...
            settings = {"email": {"address": address(p["id"]), "verified": True}}
            self.r.set(notify_keys.player_notify(p["id"]), json.dumps(settings))
            # ... and a webhook for every type, registered as a bot would
            res = s.post(
                f"{self.base}/v1/players/me/webhooks",
                json={"url": self.hooks.url(p["id"])},
                headers=auth(p["token"]),
            )
            res.raise_for_status()
            self.hooks.secrets[p["id"]] = res.json()["secret"]
        return p

    def table(self, prefix: str, t: int, subscribed: bool, seat_last: bool) -> tuple[str, list]:
        """A Goblin Market table of three; its last seat joined (the game started) only if
        `seat_last`."""
        s = self.session()
        seated = [self.player(f"{prefix}{t}_{i}", subscribed) for i in range(TABLE)]
        body = {"ruleset": "goblin-market", "players": TABLE, "decision_timeout_s": 3600}
        gid = s.post(f"{self.base}/v1/games", json=body, headers=auth(seated[0]["token"]))
        gid = gid.json()["id"]
        for p in seated if seat_last else seated[:-1]:
            self.join(gid, p)
        return gid, seated

    def join(self, gid: str, p: dict) -> None:
        res = self.session().post(f"{self.base}/v1/games/{gid}/join", headers=auth(p["token"]))
        res.raise_for_status()

    def tables(self, players: int, prefix: str, subscribed: bool, seat_last: bool = True):
        with ThreadPoolExecutor(SETUP_THREADS) as pool:
            jobs = [
                pool.submit(self.table, prefix, t, subscribed, seat_last)
                for t in range(players // TABLE)
            ]
            return [j.result() for j in jobs]


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


class Agenda:
    """Things to do at given times, for a small pool of threads: `put(at, task)`, and
    `take(until)` the next task once due (None once `until` passes)."""

    def __init__(self) -> None:
        self.heap: list = []
        self.cond = threading.Condition()
        self.order = itertools.count()

    def put(self, at: float, task) -> None:
        with self.cond:
            heapq.heappush(self.heap, (at, next(self.order), task))
            self.cond.notify()

    def take(self, until: float):
        with self.cond:
            while True:
                now = time.time()
                if now >= until:
                    return None
                if self.heap and self.heap[0][0] <= now:
                    return heapq.heappop(self.heap)[2]
                wait = (self.heap[0][0] if self.heap else until) - now
                self.cond.wait(min(wait, until - now, 1.0))


class Sampler(threading.Thread):
    """Each second: the notification steps due and not yet taken by a worker's notifier
    (workers.notifier), and how long the oldest of them has been due."""

    def __init__(self, r: redis.Redis) -> None:
        super().__init__(daemon=True)
        self.r, self.stopped = r, threading.Event()
        self.queued: list[int] = []
        self.waited: list[float] = []  # how long the oldest due step had been due

    def run(self) -> None:
        while not self.stopped.wait(1.0):
            now, sets = time.time(), (keys.notify_due(turns=True), keys.notify_due())
            self.queued.append(sum(self.r.zcount(k, "-inf", now) for k in sets))
            firsts = [self.r.zrange(k, 0, 0, withscores=True) for k in sets]
            self.waited.append(max([0.0, *(now - f[0][1] for f in firsts if f)]))


class Away:
    """Phase 1: away players who act on their turn's messages (see the module)."""

    def __init__(self, base: str, r: redis.Redis, args) -> None:
        self.base, self.r, self.args = base, r, args
        self.arrivals: queue.Queue = queue.Queue()
        self.players: dict[str, tuple[str, list]] = {}  # player -> (game, its seats)
        self.agenda = Agenda()
        self.start = self.ends = self.own_cpu = 0.0
        self.latency: dict[str, list[float]] = {c: [] for c in CHANNELS}
        self.later: dict[str, list[float]] = {c: [] for c in CHANNELS}  # second half's turns
        self.delivered: Counter = Counter()  # (channel, type) -> messages, every player
        self.got: dict[tuple[str, str], set] = {}  # (player, note id) -> channels arrived
        self.acted: set = set()
        self.counts: Counter = Counter()
        self.lock = threading.Lock()

    def total(self) -> int:
        """Messages arrived so far (the dispatcher's count: what it has taken)."""
        while not self.arrivals.empty():
            time.sleep(0.05)
        return sum(self.delivered.values())

    def arrived(self, channel: str, player: str, nid: str, at: float) -> None:
        """A receiver's callback (any phase's players): just queue it."""
        self.arrivals.put((channel, player, nid, at))

    def dispatch(self) -> None:
        """Match arrivals to turns; have a player act once both of its messages came."""
        store = SimpleNamespace(inbox=RedisInbox(self.r))  # what inbox.find reads through
        rnd = random.Random(2)
        notes: dict[str, tuple[str, float]] = {}  # note id -> (type, time written)
        while True:
            item = self.arrivals.get()
            if item is None:
                return
            channel, player, nid, at = item
            if player not in self.players:  # the rate phase's: counted, not looked up
                self.delivered[channel, "(rate phase)"] += 1
                continue
            if nid not in notes:
                note = inbox.find(store, player, nid)
                made = codec.parse_time(note["at"]).timestamp() if note else 0.0
                notes[nid] = (note["type"] if note else "?", made)
            type_, made = notes[nid]
            self.delivered[channel, type_] += 1
            if type_ != "your_turn":
                continue
            if made >= self.start:
                self.latency[channel].append(at - made)
            if made >= (self.start + self.ends) / 2:
                self.later[channel].append(at - made)
            got = self.got.setdefault((player, nid), set())
            got.add(channel)
            answer = self.args.answer * rnd.uniform(0.5, 1.5)
            if got == set(CHANNELS):
                self.agenda.put(time.time() + answer, (player, nid))
            elif len(got) == 1:
                self.agenda.put(time.time() + ONE_CHANNEL_WAIT_S, (player, nid))

    def client(self, seed: int) -> None:
        s, rnd = requests.Session(), random.Random(seed)
        while (task := self.agenda.take(self.ends)) is not None:
            if callable(task):  # a table's last seat joining
                task(s)
                continue
            player, nid = task
            with self.lock:
                if (player, nid) in self.acted:
                    continue
                self.acted.add((player, nid))
                both = self.got.get((player, nid)) == set(CHANNELS)
            self.counts["acted on both" if both else "acted on one channel only"] += 1
            gid, seated = self.players[player]
            act_owed(s, self.base, gid, seated, rnd, only=player)

    def run(self, setup: Setup, workers: list[int]) -> float:
        games = setup.tables(self.args.players, "away", subscribed=True, seat_last=False)
        self.players = {p["id"]: (gid, ps) for gid, ps in games for p in ps}
        self.start = time.time()
        self.ends = self.start + self.args.seconds
        ramp = min(self.args.answer, self.args.seconds / 2) / max(1, len(games))
        for i, (gid, ps) in enumerate(games):  # the tables start over the first --answer s
            self.agenda.put(self.start + i * ramp, lambda s, g=gid, p=ps[-1]: setup.join(g, p))
        cpu0, own0 = sum(cpu_seconds(w) for w in workers), own_cpu_seconds()
        clients = [
            threading.Thread(target=self.client, args=(i,)) for i in range(self.args.clients)
        ]
        for t in clients:
            t.start()
        for t in clients:
            t.join()
        self.own_cpu = own_cpu_seconds() - own0
        return sum(cpu_seconds(w) for w in workers) - cpu0


def figures(values: list[float]) -> str:
    return (
        f"p50 {percentile(values, 50):.2f} s, p99 {percentile(values, 99):.2f} s, "
        f"max {max(values):.2f} s"
    )


def report(away: Away, cpu: float, sampler: Sampler, args) -> None:
    counts = away.counts
    turns = sum(counts.values())
    print(
        f"away players: {turns} decisions played on their messages in {args.seconds:.0f} s "
        f"({turns / args.seconds:.1f}/s; {counts['acted on one channel only']} after one "
        "channel only)"
    )
    for channel, where in (("email", "mail at the SMTP server"), ("webhook", "webhook")):
        lat = away.latency[channel]
        if not lat:
            print(f"  no {channel} of a turn arrived")
            continue
        beyond = [x - args.delay for x in lat]
        print(f"  decision became yours -> {where} ({len(lat)}): {figures(lat)}")
        print(f"    beyond the {args.delay:g} s not-seen-live delay: {figures(beyond)}")
        if later := [x - args.delay for x in away.later[channel]]:
            print(
                f"    beyond the delay, turns of the second half ({len(later)}): {figures(later)}"
            )
    delivered = sum(away.delivered.values())
    turn_msgs = sum(n for (c, t), n in away.delivered.items() if t == "your_turn")
    print(
        f"  {delivered} messages delivered ({turn_msgs} of turns; "
        + ", ".join(f"{c} {t}: {n}" for (c, t), n in sorted(away.delivered.items()))
        + ")"
    )
    if delivered:
        print(
            f"  worker CPU per delivered message: {cpu / delivered * 1e3:.1f} ms "
            f"({cpu:.1f} s over {args.workers} worker(s): the plans, sends, SMTP and HTTP "
            "exchanges, and the games' own jobs)"
        )
    if sampler.queued:
        print(
            f"  notification steps due, not yet taken: mean "
            f"{sum(sampler.queued) / len(sampler.queued):.0f}, max {max(sampler.queued)}"
        )
    if waited := sampler.waited:
        print(
            f"  the oldest of them had been due: mean "
            f"{sum(waited) / len(waited):.1f} s, max {max(waited):.1f} s"
        )
    print(f"  CPU of this process (players, SMTP server, webhook receiver): {away.own_cpu:.1f} s")

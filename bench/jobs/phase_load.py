"""Many games on short deadlines at once (`python -m bench.jobs.phases --load`): reveals and
defaults measured under load, next to the same measure on an idle service.

Each game is a 4-seat Sorcerous Futures table steered towards closed auctions (sealed
bids, revealed by a worker when the last bid is in) whose `decision_timeout_s` is drawn
from 2-5 s. One greenlet per game polls the game every second (at once after one of its
own actions) and, for every decision it finds owed, either lets it time out (`miss`, 10%
by default) or acts after a think time of up to half the time left to its deadline; a
game that ends is replaced, so `games` stay in play.
Every game is created with three of its four seats taken before the clock starts; the
fourth join starts it. The clients retry a dropped connection with the same
Idempotency-Key (docs/clients.md).

The figures are read from the games' logs afterwards, in the server's own clock: a
reveal's latency is the time from the append of the last sealed bid to the append of
the resolution it triggered (the queue's wait and the job); a default's lateness is the
time from the deadline in force (`Record.deadline`, an extended one if an outage
extended it) to the append of its `game.DecisionTimedOut`. Extensions are counted.
"""

from __future__ import annotations

import random
import time
import uuid
from dataclasses import dataclass, field

import gevent
import gevent.event
import redis
import requests
from gevent.pool import Pool
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from bench.common import percentile
from events import codec, keys
from events.codec import parse_time
from events.fold import fold
from events.record import Record
from stores.operations import RedisOperations

POLL_S = 1.0
WAIT_S = 30  # a request's timeout (a greenlet never hangs on a lost answer)


@dataclass
class Figures:
    games: list[str] = field(default_factory=list)
    reveals: list[float] = field(default_factory=list)  # s
    late: list[float] = field(default_factory=list)  # s
    extended: int = 0
    actions: int = 0
    refused: dict[int, int] = field(default_factory=dict)  # status -> count (not 2xx)
    gaps: list[float] = field(default_factory=list)  # heartbeat gaps recorded as outages (s)

    def row(self, name: str) -> str:
        def ms(values: list[float], p: float) -> str:
            return f"{percentile(values, p) * 1e3:.0f}" if values else "-"

        def s(values: list[float], p: float) -> str:
            return f"{percentile(values, p):.2f}" if values else "-"

        return (
            f"| {name} | {len(self.games)} | {self.actions} | {len(self.reveals)} | "
            f"{ms(self.reveals, 50)} | {ms(self.reveals, 99)} | {len(self.late)} | "
            f"{s(self.late, 50)} | {s(self.late, 99)} | {self.extended} | "
            f"{len(self.gaps)} ({max(self.gaps, default=0):.1f}) |"
        )


HEADER = (
    "| load | games | actions | reveals | reveal p50 ms | p99 ms | defaults | late p50 s "
    "| p99 s | extended | outages (longest s) |\n"
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
)


def session() -> requests.Session:
    """A keep-alive session that retries a dropped connection (the server closes idle
    ones); every POST carries an Idempotency-Key, so a retry applies nothing twice."""
    s = requests.Session()
    retry = Retry(total=3, backoff_factor=0.1, allowed_methods=None, status_forcelist=())
    s.mount("http://", HTTPAdapter(max_retries=retry, pool_maxsize=8))
    return s


def post(s: requests.Session, url: str, **kw) -> requests.Response:
    headers = {**kw.pop("headers", {}), "Idempotency-Key": uuid.uuid4().hex}
    return s.post(url, headers=headers, timeout=WAIT_S, **kw)


def open_game(s: requests.Session, base: str, timeout: int) -> tuple[str, list[dict]]:
    """Create a 4-seat game and seat three players (it starts when the fourth joins)."""
    people = [post(s, f"{base}/v1/players", json={"name": f"l{i}"}).json() for i in range(4)]
    auth = [{"Authorization": f"Bearer {p['token']}"} for p in people]
    body = {"ruleset": "sorcerous-futures", "players": 4, "decision_timeout_s": timeout}
    gid = post(s, f"{base}/v1/games", json=body, headers=auth[0]).json()["id"]
    for h in auth[:3]:
        post(s, f"{base}/v1/games/{gid}/join", headers=h)
    return gid, auth


def start_game(s: requests.Session, base: str, gid: str, auth: list[dict]) -> dict[int, dict]:
    """Seat the fourth player (the game starts); return each seat's headers."""
    post(s, f"{base}/v1/games/{gid}/join", headers=auth[3])
    game = f"{base}/v1/games/{gid}"
    return {s.get(game, headers=h, timeout=WAIT_S).json()["you"]: h for h in auth}


def choose(options: dict[str, dict], rng: random.Random) -> dict:
    """Steer towards closed auctions; otherwise a plain legal move."""
    if "random_crowns" in options:
        return {"type": "random_crowns"}
    if "sealed_bid" in options:
        return {"type": "sealed_bid", "amount": 0}
    if "start_auction" in options:
        closed = [c for c in options["start_auction"]["choices"] if c["format"] == "closed"]
        if closed:
            return rng.choice(closed)
    if "pass" in options:
        return {"type": "pass"}
    first = options[next(iter(options))]
    return rng.choice(first["choices"]) if first.get("choices") else {"type": first["type"]}


class Load:
    def __init__(self, base: str, games: int, seconds: float, miss: float, seed: int = 1):
        self.base, self.games, self.until, self.miss = base, games, 0.0, miss
        self.seconds, self.rng, self.figures = seconds, random.Random(seed), Figures()

    def run(self) -> Figures:
        """Open every game first (three seats each), then start them all and play."""
        opened: list[tuple[requests.Session, str, list[dict]]] = []

        def prepare() -> None:
            s = session()
            opened.append((s, *open_game(s, self.base, self.rng.randint(2, 5))))

        setup = Pool(20)
        for _ in range(self.games):
            setup.spawn(prepare)
        setup.join()
        self.until = time.time() + self.seconds
        pool = Pool(self.games)
        for s, gid, auth in opened:
            pool.spawn(self.table, s, gid, auth)
        pool.join()
        return self.figures

    def table(self, s: requests.Session, gid: str | None, auth: list[dict]) -> None:
        """Keep one game in play until the time is up (a new one when it ends); a lost
        answer is counted (status 0) and the game goes on."""
        seats: dict[int, dict] = {}
        while time.time() < self.until:
            try:
                if gid is None:
                    gid, auth = open_game(s, self.base, self.rng.randint(2, 5))
                if not seats:
                    seats = start_game(s, self.base, gid, auth)
                    self.figures.games.append(gid)
                self.play(s, gid, seats)
                gid, seats = None, {}  # it ended: the next one
            except (requests.RequestException, ValueError, KeyError):
                self.figures.refused[0] = self.figures.refused.get(0, 0) + 1
                gevent.sleep(POLL_S)

    def play(self, s: requests.Session, gid: str, seats: dict[int, dict]) -> None:
        seen: set[tuple[int, str]] = set()
        wake = gevent.event.Event()
        while time.time() < self.until:
            wake.clear()
            game = s.get(f"{self.base}/v1/games/{gid}", timeout=WAIT_S).json()
            if game["status"] != "active":
                return
            for o in game["owed"]:
                mark = (o["seat"], o["deadline"])
                if mark in seen:
                    continue
                seen.add(mark)
                if self.rng.random() >= self.miss:
                    left = parse_time(o["deadline"]).timestamp() - time.time()
                    think = self.rng.uniform(0.0, max(0.05, left / 2))
                    gevent.spawn_later(think, self.act, s, gid, seats[o["seat"]], wake)
            wake.wait(POLL_S)  # an action of ours, or a second: look again

    def act(self, s: requests.Session, gid: str, headers: dict, wake) -> None:
        if time.time() >= self.until:
            return
        url = f"{self.base}/v1/games/{gid}"
        try:
            got = s.get(f"{url}/legal", headers=headers, timeout=WAIT_S).json()
            legal = got.get("actions", [])
            if not legal:
                return
            action = choose({a["type"]: a for a in legal}, self.rng)
            res = post(s, f"{url}/actions", json=action, headers=headers)
        except (requests.RequestException, ValueError):
            self.figures.refused[0] = self.figures.refused.get(0, 0) + 1
            return
        finally:
            wake.set()
        if res.ok:
            self.figures.actions += 1
        else:
            self.figures.refused[res.status_code] = self.figures.refused.get(res.status_code, 0) + 1


def measure(redis_url: str, figures: Figures) -> Figures:
    """Read every game's log; fill in the reveals, the defaults' lateness, the extensions."""
    client = redis.Redis.from_url(redis_url)
    for gid in figures.games:
        rec, last = Record(gid), None  # the last command: (type, at)
        for _, fields in client.xrange(keys.game_events(gid)):
            env = codec.loads(fields[b"e"])
            at = parse_time(env["at"])
            if cmd := env.get("command"):
                if cmd["type"] == "resolve" and last and last[0] == "act":
                    figures.reveals.append((at - last[1]).total_seconds())
                last = (cmd["type"], at)
            if env["type"] == "game.DecisionTimedOut":
                deadline = rec.deadline(env["data"]["key"])
                if deadline:
                    figures.late.append((at - parse_time(deadline)).total_seconds())
            elif env["type"] == "game.DeadlineExtended":
                figures.extended += 1
            rec = fold(rec, env)
    figures.gaps = [end - start for start, end in RedisOperations(client).outages_since(0)]
    client.delete(keys.outages())  # each row counts its own
    client.close()
    return figures

"""Bots that play many games at once over HTTP and remember every answer they got.

Each thread picks a random unfinished game, reads it (as a random seat or a spectator),
asks `legal` for a seat that owes a decision and posts a random legal action with a fresh
`Idempotency-Key`. Some posts carry the version just read as `If-Match`, some a stale
one; some are sent again with the same key (one after the other, or two at once). The
answers are kept so the tests can check the log against them afterwards:

- `acks`: key -> every 2xx answer it got (they must all be the same command);
- `refused`: keys answered only with a definite refusal (4xx);
- `unknown`: keys whose outcome is unknown (no answer, or a 503) until `settle` asks again;
- `samples`: GET /v1/games/{id} answers, to compare with the fold of the log;
- `errors`: anything the service must never do (a 500, a stale If-Match accepted, two
  answers for one key that disagree, a 503 that is not clean).
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import requests

from games import schemas

CLEAN_503 = {"store_unavailable", "contention", "not_replicated"}
RULESETS = {  # player counts to draw from: small tables keep the games short
    "goblin-market": (3, 4),
    "sorcerous-futures": (3, 4),
    "black-market": (3, 3),
    "gobcon": (2, 3),
}


@dataclass
class Table:
    gid: str
    ruleset: str
    tokens: dict[int, str]  # seat -> bearer token
    players: dict[int, str]  # seat -> player id


@dataclass
class Post:
    """One action request, kept so that it can be sent again with the same key."""

    table: Table
    seat: int
    key: str
    action: dict[str, Any]
    if_match: str | None
    stale: bool = False

    def headers(self) -> dict[str, str]:
        h = {"Authorization": f"Bearer {self.table.tokens[self.seat]}", "Idempotency-Key": self.key}
        if self.if_match is not None:
            h["If-Match"] = f'"{self.if_match}"'
        return h


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def new_table(
    base: str,
    ruleset: str,
    players: int,
    tag: str,
    timeout_s: int | None = None,
    options: dict[str, Any] | None = None,
) -> Table:
    """Register players, create a game (with `options`, on a decision timeout of
    `timeout_s`) and seat them all; return the table."""
    s = requests.Session()
    people = [
        s.post(f"{base}/v1/players", json={"name": f"{tag}-{i}"}, timeout=10).json()
        for i in range(players)
    ]
    res = s.post(
        f"{base}/v1/games",
        json={
            "ruleset": ruleset,
            "players": players,
            "decision_timeout_s": timeout_s,
            "options": options or {},
        },
        headers=auth(people[0]["token"]),
        timeout=10,
    )
    assert res.status_code == 201, res.text
    gid = res.json()["id"]
    for p in people:
        joined = s.post(f"{base}/v1/games/{gid}/join", headers=auth(p["token"]), timeout=10)
        assert joined.status_code == 200, joined.text
    tokens, ids = {}, {}
    for p in people:
        seat = s.get(f"{base}/v1/games/{gid}", headers=auth(p["token"]), timeout=10).json()["you"]
        tokens[seat], ids[seat] = p["token"], p["id"]
    return Table(gid, ruleset, tokens, ids)


def new_tables(base: str, games: int, seed: int) -> list[Table]:
    """Create `games` started games, cycling through every ruleset."""
    rnd, names = random.Random(seed), list(RULESETS) * games
    plan = [(names[i], rnd.randint(*RULESETS[names[i]]), f"t{seed}-{i}") for i in range(games)]
    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(lambda p: new_table(base, *p), plan))


class Failure(NamedTuple):
    """A 4xx or 5xx answer, with when (monotonic) its request was sent and answered."""

    sent: float
    answered: float
    what: str
    status: int
    code: str | None


@dataclass
class Load:
    base: str
    tables: list[Table]
    seed: int = 0
    stale_p: float = 0.15  # a post with an If-Match older than the version just read
    match_p: float = 0.35  # a post with the version just read as If-Match
    retry_p: float = 0.25  # the same request again, after its answer
    twin_p: float = 0.08  # the same request twice at once
    acks: dict[str, list[dict]] = field(default_factory=dict)
    refused: set[str] = field(default_factory=set)
    unknown: dict[str, Post] = field(default_factory=dict)
    posts: dict[str, Post] = field(default_factory=dict)
    samples: list[tuple[str, int | None, dict]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    finished: set[str] = field(default_factory=set)
    lost: int = 0  # posts that got no answer at all
    stop: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []

    # -- running -------------------------------------------------------------------
    def start(self, threads: int) -> None:
        """Start `threads` bots; they play until `stop` is set or every game is over."""
        for i in range(threads):
            t = threading.Thread(target=self._bot, args=(self.seed * 1000 + i,), daemon=True)
            self._threads.append(t)
            t.start()

    def join(self) -> None:
        """Stop the bots and wait for them."""
        self.stop.set()
        for t in self._threads:
            t.join(30)
        assert not any(t.is_alive() for t in self._threads), "a bot hangs"

    def _bot(self, seed: int) -> None:
        rnd, s = random.Random(seed), requests.Session()
        while not self.stop.is_set():
            live = [t for t in self.tables if t.gid not in self.finished]
            if not live:
                return
            try:
                self._turn(rnd, s, rnd.choice(live))
            except Exception as e:  # a bot reports, it does not die
                self._error(f"bot crashed: {e!r}")
                return

    def _turn(self, rnd: random.Random, s: requests.Session, table: Table) -> None:
        viewer = rnd.choice([None, *table.tokens])
        game = self._get(s, f"/v1/games/{table.gid}", table.tokens.get(viewer))
        if game is None:
            return
        with self._lock:
            self.samples.append((table.gid, viewer, game))
        if game["status"] == "finished":
            self.finished.add(table.gid)
            return
        if not game["owed"]:  # a phase waits for its worker
            time.sleep(0.01)
            return
        seat = rnd.choice(game["owed"])["seat"]
        legal = self._get(s, f"/v1/games/{table.gid}/legal", table.tokens[seat])
        if not legal or not legal["actions"]:
            return
        self._act(rnd, s, self._post_for(rnd, table, seat, legal))

    def _post_for(self, rnd: random.Random, table: Table, seat: int, legal: dict) -> Post:
        action = schemas.random_action(legal["actions"], rnd)
        version, roll = legal["version"], rnd.random()
        post = Post(table, seat, uuid.uuid4().hex, action, None)
        if roll < self.stale_p and version > 1:
            post.if_match = str(version - rnd.randint(1, min(3, version - 1)))
            # a simultaneous submission may be accepted with an older If-Match while the
            # phase it saw is still open (tests/api/test_turn_signals.py): not checked
            post.stale = not any(o["simultaneous"] for o in legal["owed"])
        elif roll < self.stale_p + self.match_p:
            post.if_match = str(version)
        with self._lock:
            self.posts[post.key] = post
        return post

    def _act(self, rnd: random.Random, s: requests.Session, post: Post) -> None:
        if rnd.random() < self.twin_p and not post.stale:
            twin = threading.Thread(target=self._send_safely, args=(post,))
            twin.start()
            self.send(s, post)
            twin.join(30)
            return
        status = self.send(s, post)
        if rnd.random() < self.retry_p and status is not None:
            self.send(s, post)

    def _send_safely(self, post: Post) -> None:
        try:
            self.send(requests.Session(), post)
        except Exception as e:  # a twin reports, it does not die
            self._error(f"twin crashed: {e!r}")

    # -- one request -----------------------------------------------------------------
    def _get(self, s: requests.Session, path: str, token: str | None) -> dict | None:
        try:
            res = s.get(self.base + path, headers=auth(token), timeout=15)
        except requests.RequestException:
            time.sleep(0.05)
            return None
        self._check(res, "GET " + path)
        if res.status_code != 200:
            time.sleep(0.05 if res.status_code == 503 else 0)
            return None
        return res.json()

    def send(self, s: requests.Session, post: Post) -> int | None:
        """Post the action and file the answer; return its status (None: no answer)."""
        url = f"{self.base}/v1/games/{post.table.gid}/actions"
        try:
            res = s.post(url, json=post.action, headers=post.headers(), timeout=15)
        except requests.RequestException:
            with self._lock:
                self.unknown.setdefault(post.key, post)
                self.lost += 1
            return None
        self._check(res, "POST actions")
        self._file(post, res)
        return res.status_code

    def _file(self, post: Post, res: requests.Response) -> None:
        with self._lock:
            if res.status_code in (201, 202):
                answer = {"status": res.status_code, **res.json()}
                self.acks.setdefault(post.key, []).append(answer)
                self.unknown.pop(post.key, None)
                if post.stale:
                    self.errors.append(f"a stale If-Match was accepted: {post.key}")
            elif res.status_code == 503:
                self.unknown.setdefault(post.key, post)
            else:  # a definite refusal: had an earlier try been applied, this is its replay
                self.refused.add(post.key)
                self.unknown.pop(post.key, None)
                if post.stale and res.status_code != 412:
                    self.errors.append(f"a stale If-Match got {res.status_code}: {res.text}")

    def _check(self, res: requests.Response, what: str) -> None:
        code = _code(res)
        with self._lock:
            self.statuses[(res.status_code, code)] += 1
            if res.status_code >= 400:
                now = time.monotonic()
                sent = now - res.elapsed.total_seconds()
                self.failures.append(Failure(sent, now, what, res.status_code, code))
        if res.status_code >= 500 and not (
            res.status_code == 503 and code in CLEAN_503 and res.headers.get("Retry-After")
        ):
            self._error(f"{what}: {res.status_code} {res.text[:300]}")

    def _error(self, text: str) -> None:
        with self._lock:
            self.errors.append(text)

    # -- after the run ---------------------------------------------------------------
    def settle(self, timeout: float = 30.0) -> None:
        """Send every request of unknown outcome again, with its key, until it is answered
        with a 2xx or a refusal: a retry must find the first outcome or apply it once."""
        s, ends = requests.Session(), time.monotonic() + timeout
        while self.unknown:
            assert time.monotonic() < ends, f"still unanswered: {self.failures[-3:]}"
            for post in list(self.unknown.values()):
                if self.send(s, post) in (None, 503):
                    time.sleep(0.1)

    def acked(self) -> dict[str, Post]:
        """Return the posts that got a 2xx, by key."""
        return {key: self.posts[key] for key in self.acks}


def _code(res: requests.Response) -> str | None:
    if res.headers.get("Content-Type", "").startswith("application/problem+json"):
        return res.json().get("code")
    return None

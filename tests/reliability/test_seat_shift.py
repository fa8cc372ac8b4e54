"""Leave, then play: an event stream follows its caller's seat (issue 27.1).

Before a game starts, a player in front of the others leaves (`game.PlayerLeft`) and the
later seats move up one. Every stream opened before that must go on showing its caller
what its *new* seat may know, never the old seat's secrets (a throwaway account used to
read an opponent's hand this way), and the stream of the player who left ends. Checked
for every ruleset through a real gunicorn API and a real worker, against the raw log
(tests/reliability/hidden.py decides what counts as a secret).
"""

from __future__ import annotations

import json
import random
import threading
import time

import pytest
import redis
import requests

from events.fold import fold_all
from events.record import FINISHED, Record
from events.recorder import RedisRecorder
from events.redact import redact
from events.repository import GameRepository
from tests.api.helpers import bearer, random_action
from tests.reliability import hidden
from tests.support.waiting import wait_for

MOVES = 40  # enough for every ruleset to deal its secrets and play a few of them
GAMES = [("goblin-market", 4), ("sorcerous-futures", 4), ("black-market", 3), ("gobcon", 3)]


class Reader:
    """Follows a game's stream on one connection, keeping every frame."""

    def __init__(self, base: str, gid: str, player: dict | None):
        self.url = f"{base}/v1/games/{gid}/events/stream"
        self.headers = bearer(player) if player else {}
        self.events: list[dict] = []
        self.signals: list[dict] = []  # the `owes` frames
        self.ended = False  # the server ended the stream
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        with requests.get(self.url, headers=self.headers, stream=True, timeout=60) as res:
            kind = None
            for line in res.iter_lines(decode_unicode=True):
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: ") and kind == "owes":
                    self.signals.append(json.loads(line[6:]))
                elif line.startswith("data: ") and kind not in ("chat", "receipt"):
                    self.events.append(json.loads(line[6:]))  # (the receipt follows the end)
                if self.stop.is_set():
                    return
            self.ended = True

    def until(self, version: int, timeout: float = 30) -> None:
        wait_for(
            lambda: self.events and self.events[-1]["seq"] >= version,
            timeout,
            every=0.05,
            what=lambda: f"the stream, stuck at {len(self.events)} of {version}",
        )
        self.stop.set()


def play(base: str, gid: str, seats: dict[int, dict], moves: int, rnd: random.Random) -> None:
    """Make up to `moves` random legal moves (a worker resolves the sealed phases), then
    return once the game waits on a seat or has ended: a phase the last move completed is
    resolved by then, so the log read next is the one the streams end on."""
    http, made, ends = requests.Session(), 0, time.monotonic() + 120
    while time.monotonic() < ends:
        game = http.get(f"{base}/v1/games/{gid}").json()
        if game["status"] != "active":
            return
        owing = [o["seat"] for o in game["owed"]]
        if not owing:
            time.sleep(0.05)  # a phase waits for the worker
            continue
        if made >= moves:
            return
        player = seats[rnd.choice(owing)]
        legal = http.get(f"{base}/v1/games/{gid}/legal", headers=bearer(player)).json()
        if not legal["actions"]:
            time.sleep(0.05)
            continue
        action = random_action(rnd, legal["actions"])
        res = http.post(f"{base}/v1/games/{gid}/actions", json=action, headers=bearer(player))
        assert res.status_code in (201, 202, 409, 412), res.text
        made += res.status_code in (201, 202)


@pytest.mark.parametrize(("ruleset", "players"), GAMES)
def test_a_stream_follows_its_caller_to_a_new_seat_after_a_leave(
    ruleset, players, shared_server, worker_process, redis_url
):
    worker_process()
    base, http = shared_server, requests.Session()
    people = [
        http.post(f"{base}/v1/players", json={"name": f"s{i}"}).json() for i in range(players)
    ]
    throwaway = http.post(f"{base}/v1/players", json={"name": "x"}).json()
    gid = http.post(
        f"{base}/v1/games", json={"ruleset": ruleset, "players": players}, headers=bearer(people[0])
    ).json()["id"]
    # the throwaway takes seat 0 and all but two sit behind it
    for p in [throwaway, *people[:-2]]:
        assert http.post(f"{base}/v1/games/{gid}/join", headers=bearer(p)).status_code == 200
    readers = {p["id"]: Reader(base, gid, p) for p in [throwaway, *people]}
    spectator = Reader(base, gid, None)
    time.sleep(0.5)  # every stream is open before the seats move
    assert http.post(f"{base}/v1/games/{gid}/leave", headers=bearer(throwaway)).status_code == 200
    for p in people[-2:]:  # the last two join behind them: the game starts
        assert http.post(f"{base}/v1/games/{gid}/join", headers=bearer(p)).status_code == 200
    seats = {http.get(f"{base}/v1/games/{gid}", headers=bearer(p)).json()["you"]: p for p in people}
    assert sorted(seats) == list(range(players))
    play(base, gid, seats, MOVES, random.Random(sum(map(ord, ruleset))))

    log = GameRepository(RedisRecorder(redis.Redis.from_url(redis_url))).read(gid)
    during = fold_all(Record(gid), [e for e in log if e["type"] != "game.Ended"])
    assert during.status != FINISHED
    gone = readers.pop(throwaway["id"])
    secrets_seen = 0
    for seat, player in [*seats.items(), (None, None)]:
        reader = readers[player["id"]] if player else spectator
        reader.until(log[-1]["seq"])
        shown = [{k: v for k, v in e.items() if k != "owes"} for e in reader.events]
        expected = [redact(env, during, seat) for env in log]
        if log[-1]["type"] == "game.Ended":  # everything opens at the end
            expected[-1] = log[-1]
        assert shown == expected, f"seat {seat} is shown what another seat may see"
        secrets = hidden.secret_strings(during, log, seat)
        leaked = hidden.strings([reader.events, reader.signals]) & secrets
        assert not leaked, f"seat {seat} is served {sorted(leaked)[:5]}"
        secrets_seen += bool(secrets)
        # every `owes` frame after the start is about the seat the caller holds now
        started = [s for s in reader.signals if s["status"] == "active"]
        assert all(s["seat"] == seat for s in started), (seat, started[:2])
        assert all(o["seat"] == seat for s in started for o in s["owes"])
    assert secrets_seen  # the playout dealt secrets to check
    # the player who left: its stream ended with its own game.PlayerLeft
    gone.thread.join(10)
    assert gone.ended and gone.events[-1]["type"] == "game.PlayerLeft"

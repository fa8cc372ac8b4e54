"""#27.2 under load: a seated player is never told `403 not_seated`.

The API served as `marketfold serve` serves it (gunicorn, two gevent processes) on a real
Redis. Each request opens a connection of its own, so the two processes take them as
they come: one process often holds a game from before its seats were taken (its creator
looked at the waiting game there) and knows the players' tokens (they listed games
there), while the seats were taken, and freed by a leave that moves seats up, through
the other. The sequence of the report (an action, another, one with a stale If-Match) is
played on hundreds of such games, from four clients at once.
"""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import requests

from tests.api.helpers import random_action

GAMES, CLIENTS, TURNS = 240, 4, 3


def call(method: str, url: str, token: str | None = None, **kw) -> requests.Response:
    headers = {**kw.pop("headers", {}), **({"Authorization": f"Bearer {token}"} if token else {})}
    return requests.request(method, url, headers=headers, timeout=30, **kw)


def play_one(base: str, n: int) -> list[str]:
    """Seat a game through whichever process answers, then play TURNS actions and one
    with a stale If-Match; return what went wrong (never a `not_seated`)."""
    rnd, wrong = random.Random(n), []
    names = [{"name": f"s{n}-{i}"} for i in range(4)]
    tokens = [call("POST", f"{base}/v1/players", json=name).json()["token"] for name in names]
    body = {"ruleset": "goblin-market", "players": 3}
    gid = call("POST", f"{base}/v1/games", tokens[0], json=body).json()["id"]
    game = f"{base}/v1/games/{gid}"
    for token in tokens:  # every process comes to know every token
        for _ in range(2):
            call("GET", f"{base}/v1/games?status=waiting", token)
    leaver = tokens[3]
    for token in (leaver, *tokens[:3]):
        call("GET", game, tokens[0])  # the creator looks at the waiting game
        assert call("POST", f"{game}/join", token).status_code == 200
        if token == tokens[0]:  # the first seat leaves: the seats after it move up
            assert call("POST", f"{game}/leave", leaver).status_code == 200
    seats = {call("GET", game, t).json()["you"]: t for t in tokens[:3]}
    for turn in range(TURNS + 1):
        state = call("GET", game).json()
        if state["status"] != "active" or not state["owed"]:
            break
        token = seats[state["owed"][0]["seat"]]
        legal = call("GET", f"{game}/legal", token).json()
        action = random_action(rnd, legal["actions"])
        stale = {"If-Match": '"1"'} if turn == TURNS else {}
        res = call("POST", f"{game}/actions", token, json=action, headers=stale)
        answer = res.json()
        if answer.get("code") == "not_seated" or (not stale and res.status_code >= 300):
            wrong.append(f"{gid} turn {turn}: {res.status_code} {answer}")
    return wrong


def test_a_seated_player_is_never_told_not_seated_by_either_process(live_server):
    with ThreadPoolExecutor(CLIENTS) as pool:
        results = list(pool.map(lambda n: play_one(live_server, n), range(GAMES)))
    wrong = [w for found in results for w in found]
    assert not wrong, f"{len(wrong)} wrong answers, e.g. {wrong[:3]}"

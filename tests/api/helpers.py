"""Helpers for tests that play through the HTTP API (Flask test client or a live server)."""

from __future__ import annotations

import random
import re
from typing import Any
from urllib.parse import quote

from events import keys, notify_keys
from games import schemas
from tests.support.waiting import wait_for


def bearer(player: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {player['token']}"}


def new_players(client, n: int, prefix: str = "p") -> list[dict[str, Any]]:
    return [client.post("/v1/players", json={"name": f"{prefix}{i}"}).get_json() for i in range(n)]


def new_game(client, players: list[dict], ruleset: str = "goblin-market", **body: Any) -> str:
    """Create a game for `players`, seat them all, and return its id."""
    res = client.post(
        "/v1/games",
        json={"ruleset": ruleset, "players": len(players), **body},
        headers=bearer(players[0]),
    )
    assert res.status_code == 201, res.get_json()
    gid = res.get_json()["id"]
    for p in players:
        assert client.post(f"/v1/games/{gid}/join", headers=bearer(p)).status_code == 200
    return gid


def by_seat(client, gid: str, players: list[dict]) -> dict[int, dict]:
    """Map each seat to its player, as the server reports it."""
    return {client.get(f"/v1/games/{gid}", headers=bearer(p)).get_json()["you"]: p for p in players}


def random_action(rnd: random.Random, actions: list[dict]) -> dict:
    """Pick a legal action from a /legal answer, using only its choices and schema."""
    return schemas.random_action(actions, rnd)


def play_to_end(client, app, gid: str, seats: dict[int, dict], rnd: random.Random) -> dict:
    """Play random legal actions until the game ends; resolve ready phases as a worker would."""
    from service import deadline_commands

    deps = app.extensions["marketfold"]
    while (game := client.get(f"/v1/games/{gid}").get_json())["status"] == "active":
        rec = deps.store.load(gid).record
        if (phase := rec.game.ready(rec.state)) is not None:
            deadline_commands.resolve(deps, gid, phase)
            continue
        seat = rnd.choice(game["owed"])["seat"]
        legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(seats[seat])).get_json()
        res = client.post(
            f"/v1/games/{gid}/actions",
            json=random_action(rnd, legal["actions"]),
            headers=bearer(seats[seat]),
        )
        assert res.status_code in (201, 202), res.get_json()
    return game


def wait_for_owed(client, gid: str, timeout: float = 20.0) -> dict:
    """Poll the game until someone owes a decision again (a worker closed a simultaneous
    phase) or it is finished."""

    def settled() -> dict | None:
        game = client.get(f"/v1/games/{gid}").get_json()
        return game if game["status"] != "active" or game["owed"] else None

    return wait_for(
        settled, timeout, every=0.05, what="the worker to resolve the simultaneous phase"
    )


def stored(r):
    """Every key but the rate limiter's and the server's own marks (the data format, the
    secret notification links are signed with, made on first use), with its serialized
    value."""
    skip = keys.rate_limits().encode()
    marks = {keys.data_format().encode(), notify_keys.notify_secret().encode()}
    return {k: r.dump(k) for k in r.scan_iter() if skip not in k and k not in marks}


def path_of(rule, values: dict[str, str]) -> str:
    """Fill a rule's variables: `values` by name, else a harmless stand-in."""

    def fill(m: re.Match) -> str:
        name = m.group(2)
        return quote(values.get(name, "1" if m.group(1) == "int" else "x_1"), safe="")

    return re.sub(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>", fill, rule.rule)

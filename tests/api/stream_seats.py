"""Seats played as docs/clients.md's one-call loop says, against a live server: each seat
follows its event stream, acts on `owes` frames newer than what it acted on, and goes on
from each answer's (or refusal's) `actions`, never reading `/legal`."""

from __future__ import annotations

import json
import random
import threading
import time
from typing import Any

import requests

from tests.api.helpers import bearer, random_action


def seat_table(
    base: str, ruleset: str, players: int, options: dict | None = None
) -> tuple[str, list[dict]]:
    """Register `players` players, create a game of `ruleset` and seat them all."""
    http = requests.Session()
    people = [
        http.post(f"{base}/v1/players", json={"name": f"s{i}"}).json() for i in range(players)
    ]
    body = {"ruleset": ruleset, "players": players, "options": options or {}}
    created = http.post(f"{base}/v1/games", json=body, headers=bearer(people[0]))
    assert created.status_code == 201, created.text
    gid = created.json()["id"]
    for p in people:
        http.post(f"{base}/v1/games/{gid}/join", headers=bearer(p)).raise_for_status()
    return gid, people


def play_from_streams(base: str, gid: str, people: list[dict], within_s: float = 120) -> list[int]:
    """Play every seat of a started game from its stream until the game ends (or
    `within_s` passes); return the status of every action call. Raises what a seat met."""
    url, calls, failures = f"{base}/v1/games/{gid}", [], []

    def seat_plays(player: dict, seed: int) -> None:
        rnd, acted, session = random.Random(seed), -1, requests.Session()
        try:
            with session.get(f"{url}/events/stream", headers=bearer(player), stream=True) as res:
                event = None
                for line in res.iter_lines(decode_unicode=True):
                    if line.startswith("event: "):
                        event = line[7:]
                    if event == "game.Ended":
                        return
                    if not line.startswith("data: ") or event != "owes":
                        continue
                    frame = json.loads(line[6:])
                    version, actions = frame["version"], frame["actions"]
                    if version <= acted:
                        continue
                    while actions:
                        sent = session.post(
                            f"{url}/actions",
                            json=random_action(rnd, actions),
                            headers={**bearer(player), "If-Match": f'"{version}"'},
                        )
                        calls.append(sent.status_code)
                        assert sent.status_code in (201, 202, 409, 412), sent.text
                        version, actions = sent.json()["version"], sent.json()["actions"]
                        acted = max(acted, version) if sent.status_code < 300 else acted
        except Exception as e:  # reported by the caller's thread
            failures.append(e)

    seats: list[Any] = [
        threading.Thread(target=seat_plays, args=(p, i), daemon=True) for i, p in enumerate(people)
    ]
    for seat in seats:
        seat.start()
    ends = time.monotonic() + within_s
    for seat in seats:
        seat.join(max(0.0, ends - time.monotonic()))
    if failures:
        raise failures[0]
    return calls

"""Seats played as docs/clients.md's one-call loop says, against a live server: each seat
follows its event stream, acts on `owes` frames newer than what it acted on, and goes on
from each answer's (or refusal's) `actions`, never reading `/legal`; an action whose
answer was lost is sent again with its Idempotency-Key."""

from __future__ import annotations

import json
import random
import threading
import time
import uuid

import requests

from tests.api.helpers import random_action
from tests.reliability.load import Table, auth


def send(
    session: requests.Session, url: str, token: str, version: int, rnd: random.Random, actions
) -> requests.Response:
    """POST one action as docs/clients.md says: with If-Match and an Idempotency-Key, sent
    again with the same key when its answer was lost (a keep-alive connection the server
    closed as the request went out is reset)."""
    body = random_action(rnd, actions)
    headers = {**auth(token), "If-Match": f'"{version}"', "Idempotency-Key": uuid.uuid4().hex}
    for attempt in range(3):
        try:
            return session.post(url, json=body, headers=headers)
        except requests.ConnectionError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def play_from_streams(base: str, table: Table, within_s: float = 120) -> list[int]:
    """Play every seat of a started game (tests/reliability/load.new_table) from its stream
    until the game ends (or `within_s` passes); return the status of every action call.
    Raises what a seat met."""
    url, calls, failures = f"{base}/v1/games/{table.gid}", [], []

    def seat_plays(token: str, seed: int) -> None:
        rnd, acted, session = random.Random(seed), -1, requests.Session()
        try:
            with session.get(f"{url}/events/stream", headers=auth(token), stream=True) as res:
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
                        sent = send(session, f"{url}/actions", token, version, rnd, actions)
                        calls.append(sent.status_code)
                        assert sent.status_code in (201, 202, 409, 412), sent.text
                        version, actions = sent.json()["version"], sent.json()["actions"]
                        acted = max(acted, version) if sent.status_code < 300 else acted
        except Exception as e:  # reported by the caller's thread
            failures.append(e)

    seats = [
        threading.Thread(target=seat_plays, args=(token, seat), daemon=True)
        for seat, token in table.tokens.items()
    ]
    for seat in seats:
        seat.start()
    ends = time.monotonic() + within_s
    for seat in seats:
        seat.join(max(0.0, ends - time.monotonic()))
    if failures:
        raise failures[0]
    return calls

"""A move in one call (issue 34.1), through a real gunicorn API, worker and Redis: the
answer to `POST .../actions` carries what the caller may do next, exactly what
`GET .../legal` would say at that version, so a client that acts on its last answer
never asks `legal`; a retry answers the same actions again."""

from __future__ import annotations

import random
import time
import uuid

import pytest
import requests

from tests.api.helpers import bearer, random_action


def seated(base: str, ruleset: str, players: int) -> tuple[str, dict[int, dict]]:
    http = requests.Session()
    people = [
        http.post(f"{base}/v1/players", json={"name": f"o{i}"}).json() for i in range(players)
    ]
    body = {"ruleset": ruleset, "players": players}
    gid = http.post(f"{base}/v1/games", json=body, headers=bearer(people[0])).json()["id"]
    for p in people:
        http.post(f"{base}/v1/games/{gid}/join", headers=bearer(p)).raise_for_status()
    seats = {http.get(f"{base}/v1/games/{gid}", headers=bearer(p)).json()["you"]: p for p in people}
    return gid, seats


@pytest.mark.parametrize(("ruleset", "players"), [("goblin-market", 3), ("black-market", 3)])
def test_each_answer_carries_the_callers_next_legal_actions(
    ruleset, players, live_server, worker_process
):
    worker_process()
    base, http, rnd = live_server, requests.Session(), random.Random(7)
    gid, seats = seated(base, ruleset, players)
    url = f"{base}/v1/games/{gid}"
    known: dict[int, tuple[int, list]] = {}  # seat -> (version, actions) from its last answer
    one_call = checked = 0
    ends = time.monotonic() + 90
    while checked < 40 and time.monotonic() < ends:
        game = http.get(url).json()
        if game["status"] != "active":
            break
        owing = sorted({o["seat"] for o in game["owed"]})
        if not owing:
            time.sleep(0.05)  # the worker resolves a phase
            continue
        seat = rnd.choice(owing)
        version, actions = known.get(seat, (0, []))
        if version == game["version"] and actions:
            one_call += 1  # the last answer said it all: no `legal`
        else:
            legal = http.get(f"{url}/legal", headers=bearer(seats[seat])).json()
            version, actions = legal["version"], legal["actions"]
            if not actions:  # submitted already: the others owe the rest of the phase
                time.sleep(0.05)
                continue
        res = http.post(
            f"{url}/actions",
            json=random_action(rnd, actions),
            headers={**bearer(seats[seat]), "If-Match": f'"{version}"'},
        )
        if res.status_code in (409, 412):  # a sealed phase resolved meanwhile
            continue
        assert res.status_code in (201, 202), res.text
        answer = res.json()
        assert "cards" not in answer  # small: no glossary
        legal = http.get(f"{url}/legal", headers=bearer(seats[seat])).json()
        if legal["version"] == answer["version"]:
            assert answer["actions"] == legal["actions"]
            owes = any(o["seat"] == seat for o in answer["owed"])
            assert bool(answer["actions"]) == owes
            checked += 1
        known[seat] = (answer["version"], answer["actions"])
    assert checked >= 20
    if ruleset == "goblin-market":
        assert one_call > 0  # a seat that owes again at once moves without asking


def test_a_retry_answers_the_actions_of_its_first_answer(live_server):
    """The retry comes after the game moved on: its answer is still the first one, with
    the actions as they were at its version."""
    base, http, rnd = live_server, requests.Session(), random.Random(5)
    gid, seats = seated(base, "gobcon", 2)
    url = f"{base}/v1/games/{gid}"
    for _ in range(60):  # until an action leaves its seat owing more (a GobCon turn)
        game = http.get(url).json()
        seat = game["owed"][0]["seat"]
        me = bearer(seats[seat])
        legal = http.get(f"{url}/legal", headers=me).json()
        key = {"Idempotency-Key": uuid.uuid4().hex}
        action = random_action(rnd, legal["actions"])
        first = http.post(f"{url}/actions", json=action, headers={**me, **key})
        assert first.status_code in (201, 202), first.text
        if first.json()["actions"]:
            break
    else:
        pytest.fail("no action left its seat owing more")
    again_at = first.json()["version"]
    nxt = random_action(rnd, first.json()["actions"])  # one call: from the answer
    moved = http.post(f"{url}/actions", json=nxt, headers={**me, "If-Match": f'"{again_at}"'})
    assert moved.status_code in (201, 202) and moved.json()["version"] > again_at
    again = http.post(f"{url}/actions", json=action, headers={**me, **key})
    assert again.status_code == first.status_code
    assert again.json() == first.json()

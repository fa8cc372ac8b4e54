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
from tests.api.stream_seats import play_from_streams
from tests.reliability.load import new_table


def seated(base: str, ruleset: str, players: int) -> tuple[str, dict[int, dict]]:
    table = new_table(base, ruleset, players, "o")
    return table.gid, {seat: {"token": token} for seat, token in table.tokens.items()}


@pytest.mark.parametrize(("ruleset", "players"), [("goblin-market", 3), ("black-market", 3)])
def test_each_answer_carries_the_callers_next_legal_actions(
    ruleset, players, shared_server, worker_process
):
    worker_process()
    base, http, rnd = shared_server, requests.Session(), random.Random(7)
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


def test_a_retry_answers_the_actions_of_its_first_answer(shared_server):
    """The retry comes after the game moved on: its answer is still the first one, with
    the actions as they were at its version."""
    base, http, rnd = shared_server, requests.Session(), random.Random(5)
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


def test_a_refused_action_says_what_the_caller_may_do_now(shared_server, worker_process):
    """412 (a stale If-Match) and 409 (the rules) carry the game's version and the caller's
    actions at it, as `legal` lists them, so that a client tries again in one call."""
    worker_process()  # GobCon's rolls
    base, http, rnd = shared_server, requests.Session(), random.Random(3)
    gid, seats = seated(base, "gobcon", 2)
    url = f"{base}/v1/games/{gid}"

    def owed() -> dict:
        for _ in range(200):
            if (game := http.get(url).json())["owed"]:
                return game
            time.sleep(0.05)  # a worker rolls
        pytest.fail("nobody owes anything")

    for _ in range(3):  # move the game past version 1
        seat = owed()["owed"][0]["seat"]
        legal = http.get(f"{url}/legal", headers=bearer(seats[seat])).json()
        sent = http.post(
            f"{url}/actions", json=random_action(rnd, legal["actions"]), headers=bearer(seats[seat])
        )
        assert sent.status_code in (201, 202), sent.text
    seat = owed()["owed"][0]["seat"]
    owing = bearer(seats[seat])
    legal = http.get(f"{url}/legal", headers=owing).json()
    assert legal["actions"] and legal["version"] > 1

    stale = http.post(
        f"{url}/actions",
        json=random_action(rnd, legal["actions"]),
        headers={**owing, "If-Match": '"1"'},
    )
    assert stale.status_code == 412 and stale.json()["code"] == "version_mismatch"
    assert stale.json()["version"] == legal["version"]
    assert stale.json()["actions"] == legal["actions"]
    # the next call, from the refusal alone, is taken
    again = http.post(
        f"{url}/actions",
        json=random_action(rnd, stale.json()["actions"]),
        headers={**owing, "If-Match": f'"{stale.json()["version"]}"'},
    )
    assert again.status_code in (201, 202), again.text

    for _ in range(20):  # until one seat owes and the other does not
        now = owed()
        if len(owing_seats := {o["seat"] for o in now["owed"]}) == 1:
            break
        both = bearer(seats[0])  # a simultaneous response: seat 0 answers it
        legal = http.get(f"{url}/legal", headers=both).json()
        http.post(f"{url}/actions", json=random_action(rnd, legal["actions"]), headers=both)
    else:
        pytest.fail("both seats kept owing")
    idle = bearer(seats[1 - owing_seats.pop()])
    refused = http.post(f"{url}/actions", json={"type": "pass"}, headers=idle)
    assert refused.status_code == 409, refused.text
    assert refused.json()["version"] == now["version"] and refused.json()["actions"] == []
    assert http.get(url).json()["version"] == now["version"]  # nothing appended
    # a caller without a seat learns the version, and that it may do nothing
    stranger = http.post(f"{base}/v1/players", json={"name": "x"}).json()
    outside = http.post(
        f"{url}/actions", json={"type": "pass"}, headers={**bearer(stranger), "If-Match": '"1"'}
    )
    assert outside.status_code == 412, outside.text
    assert (outside.json()["version"], outside.json()["actions"]) == (now["version"], [])


def test_stream_following_bots_finish_a_wild_black_market_game_in_one_call_each(
    shared_server, worker_process
):
    """Every seat acts on its stream's `owes` frames and on answers, refusals included,
    never reading `legal`: in wild trade other seats' offers and deals keep moving the game
    under a seat's feet, and a refused call must leave it knowing what to do."""
    worker_process()
    table = new_table(shared_server, "black-market", 3, "w", options={"trade": "wild"})
    calls = play_from_streams(shared_server, table)
    game = requests.get(f"{shared_server}/v1/games/{table.gid}").json()
    assert game["status"] == "finished", (game["owed"], len(calls))
    assert any(code in (409, 412) for code in calls)  # wild trade refuses stale moves

"""Computer seats over the API, played by a real worker: a person alone starts a game
against the computer and plays it to the end; computer seats are marked in the game, the
lobby, the event log and the export; bad requests get a problem naming the field."""

from __future__ import annotations

import random
import time

import pytest

from tests.api.helpers import bearer, new_players, random_action

# the fastest computer at every test: a search of 0.05 s, and no deadline margin to keep
FAST = {"MARKETFOLD_COMPUTER_BUDGET_S": "0.05"}


def _play_alone(client, gid: str, me: dict, rnd: random.Random, limit_s: float = 240) -> dict:
    """Make the person's moves until the game ends; every other move is the computer's."""
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        game = client.get(f"/v1/games/{gid}", headers=bearer(me)).get_json()
        if game["status"] != "active":
            return game
        if any(o["seat"] == game["you"] for o in game["owed"]):
            legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(me)).get_json()
            if legal["actions"]:
                client.post(
                    f"/v1/games/{gid}/actions",
                    json=random_action(rnd, legal["actions"]),
                    headers={**bearer(me), "If-Match": f'"{legal["version"]}"'},
                )
                continue
        time.sleep(0.05)
    raise AssertionError(f"game {gid} did not end in {limit_s} s")


@pytest.mark.parametrize(
    ("ruleset", "players", "level"),
    [
        ("goblin-market", 3, "strong"),
        ("sorcerous-futures", 4, "quick"),
        ("black-market", 3, "strong"),
        ("gobcon", 6, "quick"),
    ],
)
def test_a_person_alone_plays_a_whole_game_against_computer_seats(
    client, worker_process, ruleset, players, level
):
    worker_process(**FAST)
    (me,) = new_players(client, 1, prefix="solo")
    res = client.post(
        "/v1/games",
        json={
            "ruleset": ruleset,
            "players": players,
            "join": True,
            "computer": {"level": level},
            "decision_timeout_s": 120,
        },
        headers=bearer(me),
    )
    assert res.status_code == 201, res.get_json()
    game = res.get_json()
    assert game["status"] == "active" and game["you"] is not None
    marks = [s["computer"] for s in game["seats"]]
    assert marks.count(None) == 1 and marks.count({"level": level}) == players - 1
    names = {s["name"] for s in game["seats"] if s["computer"]}
    assert len(names) == players - 1

    done = _play_alone(client, game["id"], me, random.Random(3))
    assert done["status"] == "finished" and done["result"]["reason"] == "completed"
    events = client.get(f"/v1/games/{game['id']}/events", headers=bearer(me)).get_json()["events"]
    joined = [e for e in events if e["type"] == "game.PlayerJoined"]
    assert sum(1 for e in joined if e["data"].get("computer") == {"level": level}) == players - 1
    computer_players = {s["player"] for s in game["seats"] if s["computer"]}
    acted = {
        e["command"]["player"] for e in events if (e.get("command") or {}).get("type") == "act"
    }
    assert computer_players <= acted  # every computer seat moved by itself, as a player
    timed_out = [e for e in events if e["type"] == "game.DecisionTimedOut"]
    assert not timed_out  # and never by a deadline's default
    bundle = client.get(f"/v1/games/{game['id']}/export").get_json()
    logged = [e for e in bundle["events"] if e["type"] == "game.PlayerJoined"]
    assert sum(1 for e in logged if e["data"].get("computer")) == players - 1
    verdict = client.post("/v1/verify", json=bundle).get_json()
    assert verdict["ok"] is True, verdict  # the audit decides the computer seats again


def test_the_creator_fills_the_empty_seats_and_the_lobby_shows_them(client, worker_process):
    worker_process(**FAST)
    me, friend = new_players(client, 2, prefix="host")
    gid = client.post(
        "/v1/games",
        json={"ruleset": "goblin-market", "players": 4, "join": True},
        headers=bearer(me),
    ).get_json()["id"]
    client.post(f"/v1/games/{gid}/join", headers=bearer(friend))
    refused = client.post(
        f"/v1/games/{gid}/computer-seats", json={"level": "quick"}, headers=bearer(friend)
    )
    assert refused.status_code == 403 and refused.get_json()["code"] == "not_creator"
    lobby = client.get("/v1/games?status=waiting").get_json()
    listed = next(g for g in lobby["games"] if g["id"] == gid)
    assert [s["computer"] for s in listed["seats"]] == [None, None]
    res = client.post(
        f"/v1/games/{gid}/computer-seats", json={"level": "quick", "seats": 1}, headers=bearer(me)
    )
    assert res.status_code == 200 and res.get_json()["status"] == "waiting"
    res = client.post(
        f"/v1/games/{gid}/computer-seats", json={"level": "strong"}, headers=bearer(me)
    )
    game = res.get_json()
    assert game["status"] == "active"
    assert [s["computer"] for s in game["seats"]] == [
        None,
        None,
        {"level": "quick"},
        {"level": "strong"},
    ]
    again = client.post(
        f"/v1/games/{gid}/computer-seats", json={"level": "quick"}, headers=bearer(me)
    )
    assert again.status_code == 409 and again.get_json()["code"] == "game_not_waiting"


def test_the_creator_cannot_fill_a_table_past_its_free_seats_or_without_a_person(client):
    (me,) = new_players(client, 1, prefix="host")
    gid = client.post(
        "/v1/games", json={"ruleset": "goblin-market", "players": 3}, headers=bearer(me)
    ).get_json()["id"]  # the creator is not seated
    alone = client.post(
        f"/v1/games/{gid}/computer-seats", json={"level": "quick"}, headers=bearer(me)
    )
    assert alone.status_code == 409 and alone.get_json()["code"] == "no_person_seated"
    assert alone.get_json()["errors"] == {
        "seats": [
            "a person must hold or be invited to a seat: join, invite someone, or leave a seat free"
        ]
    }
    many = client.post(
        f"/v1/games/{gid}/computer-seats", json={"level": "quick", "seats": 4}, headers=bearer(me)
    )
    assert many.status_code == 409 and many.get_json()["code"] == "no_free_seat"
    game = client.get(f"/v1/games/{gid}").get_json()
    assert game["seats"] == []  # nothing was written
    two = client.post(
        f"/v1/games/{gid}/computer-seats", json={"level": "quick", "seats": 2}, headers=bearer(me)
    )
    assert two.status_code == 200 and len(two.get_json()["seats"]) == 2
    assert two.get_json()["status"] == "waiting"  # a seat is left for a person


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"computer": {"level": "grandmaster"}}, "computer"),
        ({"computer": {"level": "quick", "seats": 0}}, "computer"),
        ({"computer": {"level": "quick", "seats": 3}}, "computer.seats"),  # 2 free beside me
        (
            {"computer": {"level": "quick", "seats": 3}, "join": False},
            "computer.seats",
        ),  # no person
        ({"computer": {"seats": 1}}, "computer"),
        ({"computer": "strong"}, "computer"),
    ],
)
def test_bad_computer_seats_are_refused_naming_the_field_and_nothing_is_written(
    client, body, field
):
    (me,) = new_players(client, 1, prefix="bad")
    before = client.get("/v1/games?status=waiting").get_json()["games"]
    res = client.post(
        "/v1/games",
        json={"ruleset": "goblin-market", "players": 3, "join": True, **body},
        headers=bearer(me),
    )
    assert res.status_code in (400, 422), res.get_json()
    assert res.headers["Content-Type"].startswith("application/problem+json")
    problem = res.get_json()
    assert any(k == field or k.startswith(field + ".") for k in problem["errors"]), problem
    assert client.get("/v1/games?status=waiting").get_json()["games"] == before


def test_a_slow_search_is_cut_to_the_decision_deadline(client, worker_process):
    """A strong level allowed a minute per decision at a table with 4 s per decision
    moves before each deadline: its budget is cut to the time left less the margin (the
    worker's log says how long it took); no default is ever applied for it."""
    worker_process(MARKETFOLD_COMPUTER_BUDGET_S="60", MARKETFOLD_COMPUTER_MARGIN_S="1.5")
    (me,) = new_players(client, 1, prefix="hurry")
    game = client.post(
        "/v1/games",
        json={
            "ruleset": "goblin-market",
            "players": 3,
            "join": True,
            "computer": {"level": "strong"},
            "decision_timeout_s": 4,
        },
        headers=bearer(me),
    ).get_json()
    computers = {s["seat"] for s in game["seats"] if s["computer"]}
    rnd, moved, end = random.Random(1), 0, time.monotonic() + 90
    while moved < 4 and time.monotonic() < end:
        events = client.get(f"/v1/games/{game['id']}/events", headers=bearer(me)).get_json()[
            "events"
        ]
        # others' commands stay hidden until the end: the events' actor names the seat
        moved = sum(1 for e in events if e["actor"] in computers)
        timed_out = [e for e in events if e["type"] == "game.DecisionTimedOut"]
        assert not any(e["data"]["seat"] != game["you"] for e in timed_out), timed_out
        legal = client.get(f"/v1/games/{game['id']}/legal", headers=bearer(me)).get_json()
        if legal.get("actions"):
            client.post(
                f"/v1/games/{game['id']}/actions",
                json=random_action(rnd, legal["actions"]),
                headers={**bearer(me), "If-Match": f'"{legal["version"]}"'},
            )
        time.sleep(0.2)
    assert moved >= 4  # computer moves, each before its 4 s deadline

"""Goblin Market played end to end through the API alone."""

import random

import requests

from events.fold import fold_all
from events.record import Record
from tests.api.helpers import bearer, by_seat, new_game, new_players, random_action


def test_a_four_player_game_is_played_to_the_end_over_http(live_server):
    base, s, rnd = live_server, requests.Session(), random.Random(4)
    players = [s.post(f"{base}/v1/players", json={"name": f"ana{i}"}).json() for i in range(4)]
    created = s.post(
        f"{base}/v1/games",
        json={"ruleset": "goblin-market", "players": 4},
        headers=bearer(players[0]),
    )
    assert created.status_code == 201 and created.json()["status"] == "waiting"
    gid = created.json()["id"]
    seats = {}
    for p in players:
        seats[s.post(f"{base}/v1/games/{gid}/join", headers=bearer(p)).json()["seat"]] = p
    assert sorted(seats) == [0, 1, 2, 3]
    moves = 0
    while (game := s.get(f"{base}/v1/games/{gid}").json())["status"] == "active":
        seat = game["owed"][0]["seat"]
        legal = s.get(f"{base}/v1/games/{gid}/legal", headers=bearer(seats[seat])).json()
        assert legal["version"] == game["version"]
        res = s.post(
            f"{base}/v1/games/{gid}/actions",
            json=random_action(rnd, legal["actions"]),
            headers=bearer(seats[seat]),
        )
        assert res.status_code == 201, res.text
        moves += 1
    assert game["status"] == "finished" and moves > 10
    result = game["result"]
    assert sorted(s["seat"] for s in result["standings"]) == [0, 1, 2, 3]
    assert result["winners"] and all(
        s["place"] == 1 for s in result["standings"] if s["seat"] in result["winners"]
    )
    log = s.get(f"{base}/v1/games/{gid}/events").json()
    assert log["version"] == game["version"] == len(log["events"])
    assert log["events"][-1]["type"] == "game.Ended"
    assert not any(e.get("redacted") for e in log["events"])  # all open once it is over


def test_the_served_state_equals_the_fold_of_the_log(client, app):
    players = new_players(client, 3)
    gid = new_game(client, players)
    seats, rnd = by_seat(client, gid, players), random.Random(1)
    for _ in range(15):
        game = client.get(f"/v1/games/{gid}").get_json()
        seat = game["owed"][0]["seat"]
        legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(seats[seat])).get_json()
        client.post(
            f"/v1/games/{gid}/actions",
            json=random_action(rnd, legal["actions"]),
            headers=bearer(seats[seat]),
        )
    store = app.extensions["marketfold"].store
    folded = fold_all(Record(gid), store.read(gid))
    served = client.get(f"/v1/games/{gid}").get_json()
    assert served["version"] == folded.version
    assert served["view"] == folded.game.view(folded.state, None, "en")

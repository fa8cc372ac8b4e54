"""Resigning a seat and aborting a game over HTTP; fresh deadlines after an outage."""

from __future__ import annotations

import json
import time

from events import keys
from service import deadline_commands, outages
from stores.operations import RedisOperations
from tests.api.helpers import bearer, by_seat, new_game, new_players


def test_a_player_resigns_and_the_game_goes_on_without_waiting_for_it(api, client):
    players = new_players(client, 3)
    gid = new_game(client, players, decision_timeout_s=3600)
    seats = by_seat(client, gid, players)
    game = client.get(f"/v1/games/{gid}").get_json()
    owing = game["owed"][0]["seat"]  # the seat to bid now resigns: its pass is applied at once
    res = api.post("/v1/games/{id}/resign", gid, seats[owing]["token"])
    assert res.status_code == 200
    body = res.get_json()
    assert body["events"][0]["type"] == "game.SeatResigned"
    assert body["events"][0]["data"] == {"seat": owing}
    assert body["status"] == "active"
    assert all(o["seat"] != owing for o in body["owed"])  # never owed again
    again = api.post("/v1/games/{id}/resign", gid, seats[owing]["token"])
    assert again.status_code == 200 and again.get_json()["version"] == body["version"]
    acted = api.post("/v1/games/{id}/actions", gid, seats[owing]["token"], json={"type": "pass"})
    assert acted.status_code == 409 and acted.get_json()["code"] == "resigned"


def test_resigning_is_refused_to_strangers_and_before_the_start(api, client):
    players = new_players(client, 4)
    gid = new_game(client, players[:3])
    assert api.post("/v1/games/{id}/resign", gid).status_code == 401
    assert api.post("/v1/games/{id}/resign", gid, players[3]["token"]).status_code == 403
    assert api.post("/v1/games/{id}/resign", "g_none", players[0]["token"]).status_code == 404
    res = client.post(
        "/v1/games", json={"ruleset": "goblin-market", "players": 3}, headers=bearer(players[0])
    )
    waiting = res.get_json()["id"]
    client.post(f"/v1/games/{waiting}/join", headers=bearer(players[0]))
    early = api.post("/v1/games/{id}/resign", waiting, players[0]["token"])
    assert early.status_code == 409 and early.get_json()["code"] == "game_not_started"


def test_every_seat_but_one_resigning_ends_the_game(api, client):
    players = new_players(client, 3)
    gid = new_game(client, players)
    seats = by_seat(client, gid, players)
    api.post("/v1/games/{id}/resign", gid, seats[0]["token"])
    last = api.post("/v1/games/{id}/resign", gid, seats[2]["token"]).get_json()
    assert last["status"] == "finished"
    result = client.get(f"/v1/games/{gid}").get_json()["result"]
    assert result["reason"] == "resigned" and result["resigned"] == [0, 2]
    assert result["winners"] == [1]
    assert client.get(f"/v1/games/{gid}/export").get_json()["events"][-1]["type"] == "game.Ended"


def test_only_an_operator_aborts_a_game_and_it_ends_with_reason_aborted(api, client, app):
    players = new_players(client, 5)
    operator = players[3]
    app.config["OPERATORS"] = [operator["id"]]
    gid = new_game(client, players[:3])
    refused = api.post("/v1/games/{id}/abort", gid, players[4]["token"])  # not seated
    assert refused.status_code == 403 and refused.get_json()["code"] == "not_operator"
    assert api.post("/v1/games/{id}/abort", "g_nope", operator["token"]).status_code == 404
    version = client.get(f"/v1/games/{gid}").get_json()["version"]
    assert client.get(f"/v1/games/{gid}").get_json()["version"] == version  # nothing written
    done = api.post("/v1/games/{id}/abort", gid, operator["token"])
    assert done.status_code == 200
    assert done.get_json()["status"] == "finished"
    assert done.get_json()["result"]["reason"] == "aborted"
    twice = api.post("/v1/games/{id}/abort", gid, operator["token"])
    assert twice.status_code == 409 and twice.get_json()["code"] == "game_over"
    verified = client.post("/v1/verify", json=client.get(f"/v1/games/{gid}/export").get_json())
    assert verified.get_json()["ok"], verified.get_json()


def test_a_deadline_inside_an_outage_gets_a_fresh_one_instead_of_its_default(client, app, r):
    players = new_players(client, 3)
    gid = new_game(client, players, decision_timeout_s=2)
    deps = app.extensions["marketfold"]
    rec = deps.store.load(gid).record
    key, old = rec.owed()[0].key, rec.deadline(rec.owed()[0].key)
    now, beats = time.time(), RedisOperations(r)
    outages.beat(beats, now - 600, threshold=15)  # the workers' last beat, ten minutes ago
    assert outages.beat(beats, now, threshold=15) == (now - 600, now)  # back: an outage
    assert deadline_commands.expire(deps, gid, key) == "extended"
    events = client.get(f"/v1/games/{gid}/events").get_json()["events"]
    extended = [e for e in events if e["type"] == "game.DeadlineExtended"]
    assert [e["data"]["key"] for e in extended] == [key]
    data = extended[0]["data"]
    assert data["old_deadline"] == old and data["reason"] == "outage"
    assert data["seats"] == [rec.owed()[0].seat]
    assert not [e for e in events if e["type"] == "game.DecisionTimedOut"]
    owed = client.get(f"/v1/games/{gid}").get_json()["owed"][0]
    assert owed["deadline"] == data["new_deadline"] > old  # the one deadline everyone sees
    assert deadline_commands.expire(deps, gid, key) == "early"  # not extended twice
    seat = rec.owed()[0].seat
    player = rec.seats[seat].player
    notes = [json.loads(f[b"n"]) for _, f in r.xrange(keys.player_feed(player))]
    assert notes[-1]["type"] == "your_turn" and notes[-1]["deadline"] == data["new_deadline"]
    assert outages.beat(beats, now + 1, threshold=15) is None  # a normal beat: no outage

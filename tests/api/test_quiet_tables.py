"""Leaving a table that went quiet: a player's abort before every seat has moved, and a
claim of an untimed game nobody has acted in for its `claim_after_s`."""

from __future__ import annotations

import time

from tests.api.helpers import bearer, by_seat, new_game, new_players


def _verified(client, gid: str) -> dict:
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    return client.post("/v1/verify", json=bundle).get_json()


def _act(client, gid: str, player: dict) -> None:
    legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(player)).get_json()
    choice = legal["actions"][0]["choices"][0]
    res = client.post(f"/v1/games/{gid}/actions", json=choice, headers=bearer(player))
    assert res.status_code in (201, 202), res.get_json()


def test_a_seated_player_aborts_before_every_seat_has_moved_and_the_audit_agrees(api, client):
    players = new_players(client, 3)
    stranger = new_players(client, 1, prefix="x")[0]
    gid = new_game(client, players, ruleset="gobcon", decision_timeout_s=600)
    seats = by_seat(client, gid, players)
    first = client.get(f"/v1/games/{gid}").get_json()["owed"][0]["seat"]
    _act(client, gid, seats[first])  # one seat has moved: the others have not
    refused = api.post("/v1/games/{id}/abort", gid, stranger["token"])
    assert refused.status_code == 403 and refused.get_json()["code"] == "not_operator"
    done = api.post("/v1/games/{id}/abort", gid, seats[first]["token"])
    assert done.status_code == 200, done.get_json()
    assert done.get_json()["result"]["reason"] == "aborted"
    assert _verified(client, gid)["ok"]
    export = client.get(f"/v1/games/{gid}/export").get_json()["events"]
    aborted = [e for e in export if e["type"] == "game.Aborted"]
    assert aborted and aborted[0]["command"] == {
        "type": "abort_early",
        "player": seats[first]["id"],
        "rule": 2,
    }


def test_once_every_seat_has_moved_a_player_may_no_longer_abort(api, client):
    players = new_players(client, 2)
    gid = new_game(client, players, ruleset="gobcon")
    seats = by_seat(client, gid, players)
    moved: set[int] = set()
    while len(moved) < 2:
        game = client.get(f"/v1/games/{gid}").get_json()
        seat = game["owed"][0]["seat"]
        _act(client, gid, seats[seat])
        moved.add(seat)
    late = api.post("/v1/games/{id}/abort", gid, seats[0]["token"])
    assert late.status_code == 409 and late.get_json()["code"] == "abort_too_late"
    assert client.get(f"/v1/games/{gid}").get_json()["status"] == "active"


def test_an_idle_untimed_game_is_claimed_by_a_seat_that_owes_nothing(api, client):
    players = new_players(client, 2)
    gid = new_game(client, players, ruleset="gobcon", claim_after_s=1)
    game = api.get("/v1/games/{id}", gid).get_json()
    assert game["decision_timeout_s"] is None and game["claim_after_s"] == 1
    seats = by_seat(client, gid, players)
    owing = game["owed"][0]["seat"]
    waiting = players[0] if seats[owing] is players[1] else players[1]
    early = api.post("/v1/games/{id}/claim", gid, waiting["token"])
    assert early.status_code == 409 and early.get_json()["code"] == "claim_too_early"
    time.sleep(1.1)
    own = api.post("/v1/games/{id}/claim", gid, seats[owing]["token"])
    assert own.status_code == 409 and own.get_json()["code"] == "claim_not_allowed"
    done = api.post("/v1/games/{id}/claim", gid, waiting["token"])
    assert done.status_code == 200, done.get_json()
    assert done.get_json()["result"]["reason"] == "abandoned"
    report = _verified(client, gid)
    assert report["ok"], report


def test_a_timed_game_is_not_claimed_and_untimed_games_get_a_default_claim_time(api, client):
    players = new_players(client, 2)
    timed = new_game(client, players, ruleset="gobcon", decision_timeout_s=30)
    untimed = new_game(client, players, ruleset="gobcon")
    assert api.get("/v1/games/{id}", timed).get_json()["claim_after_s"] is None
    assert api.get("/v1/games/{id}", untimed).get_json()["claim_after_s"] == 3 * 24 * 3600
    seats = by_seat(client, timed, players)
    owing = client.get(f"/v1/games/{timed}").get_json()["owed"][0]["seat"]
    res = api.post("/v1/games/{id}/claim", timed, seats[1 - owing]["token"])
    assert res.status_code == 409 and res.get_json()["code"] == "claim_not_allowed"
    seats = by_seat(client, untimed, players)
    owing = client.get(f"/v1/games/{untimed}").get_json()["owed"][0]["seat"]
    res = api.post("/v1/games/{id}/claim", untimed, seats[1 - owing]["token"])
    assert res.status_code == 409 and res.get_json()["code"] == "claim_too_early"


def test_a_players_abort_of_a_league_game_gives_no_points(client, app):
    from service import league_commands
    from tests.leagues.helpers import started_league

    lid, players = started_league(client, app, n=3, rounds=2)
    gid = client.get(f"/v1/leagues/{lid}/rounds/1").get_json()["tables"][0]["game"]
    seated = {s["player"] for s in client.get(f"/v1/games/{gid}").get_json()["seats"]}
    player = next(p for p in players if p["id"] in seated)
    done = client.post(f"/v1/games/{gid}/abort", headers=bearer(player))
    assert done.status_code == 200 and done.get_json()["result"]["reason"] == "aborted"
    assert league_commands.record_result(app.extensions["marketfold"], lid, gid) == "recorded"
    rows = client.get(f"/v1/leagues/{lid}/standings").get_json()["standings"]
    assert all(row["points"] == 0 for row in rows)

"""Tokens: issued, listed without their secret, revoked at once; public profiles."""

from __future__ import annotations

import json
import random

from events import keys
from service.tokens import hash_token
from tests.api.helpers import bearer, by_seat, new_game, new_players, play_to_end
from tests.api.openapi_check import check

TOKEN = "/v1/players/me/tokens/{token_id}"


def test_a_second_token_works_is_listed_without_secrets_and_dies_when_revoked(api, client, r):
    (ana,) = new_players(client, 1)
    issued = api.post("/v1/players/me/tokens", "", ana["token"]).get_json()
    assert issued["token"].startswith("mf_") and issued["token"] != ana["token"]
    second = {"token": issued["token"]}
    listed = api.get("/v1/players/me/tokens", "", second["token"]).get_json()["tokens"]
    assert [t["id"] for t in listed if t["current"]] == [issued["id"]]
    assert len(listed) == 2 and all(
        set(t) == {"id", "created", "last_used", "current"} for t in listed
    )
    assert all(t["last_used"] is None for t in listed)  # recorded at most once a minute
    key = keys.token(hash_token(issued["token"]))
    r.set(key, json.dumps({**json.loads(r.get(key)), "used": 0}))  # as if a minute passed
    listed = api.get("/v1/players/me/tokens", "", second["token"]).get_json()["tokens"]
    assert next(t for t in listed if t["current"])["last_used"] is not None
    stored = b"".join(k + v for k in r.keys("*") for v in [r.dump(k) or b""])
    assert issued["token"].encode() not in stored and ana["token"].encode() not in stored
    first_id = next(t["id"] for t in listed if not t["current"])
    gone = client.delete(f"/v1/players/me/tokens/{first_id}", headers=bearer(second))
    assert check(gone, "DELETE", TOKEN).status_code == 204
    assert client.get("/v1/players/me/tokens", headers=bearer(ana)).status_code == 401
    assert client.post("/v1/games/x/join", headers=bearer(ana)).status_code == 401
    assert client.get("/v1/players/me/tokens", headers=bearer(second)).status_code == 200
    again = client.delete(f"/v1/players/me/tokens/{first_id}", headers=bearer(second))
    assert check(again, "DELETE", TOKEN).get_json()["code"] == "token_not_found"


def test_a_player_holds_at_most_twenty_tokens(client):
    (ana,) = new_players(client, 1)
    codes = [
        client.post("/v1/players/me/tokens", headers=bearer(ana)).status_code for _ in range(20)
    ]
    assert codes == [201] * 19 + [409]


def test_a_profile_counts_finished_games_per_ruleset(api, client, app):
    players = new_players(client, 3)
    gid = new_game(client, players)
    play_to_end(client, app, gid, by_seat(client, gid, players), random.Random(7))
    res = client.get(f"/v1/players/{players[1]['id']}")
    profile = check(res, "GET", "/v1/players/{player_id}").get_json()
    assert profile["name"] == "p1" and profile["games_played"] == {"goblin-market": 1}
    assert profile["created"] and profile["leagues"] == []
    missing = client.get("/v1/players/p_nobody")
    assert check(missing, "GET", "/v1/players/{player_id}").get_json()["code"] == "player_not_found"


def test_a_token_from_before_token_ids_is_listed_and_revocable(client, r):
    (ana,) = new_players(client, 1)
    key = keys.token(hash_token(ana["token"]))
    r.set(key, json.dumps({"id": ana["id"], "name": "p0"}))  # as registration stored it
    r.delete(keys.player_tokens(ana["id"]))
    listed = client.get("/v1/players/me/tokens", headers=bearer(ana)).get_json()["tokens"]
    assert [t["current"] for t in listed] == [True]
    gone = client.delete(f"/v1/players/me/tokens/{listed[0]['id']}", headers=bearer(ana))
    assert gone.status_code == 204
    assert client.get("/v1/players/me/tokens", headers=bearer(ana)).status_code == 401


def test_a_profile_shows_the_rating_in_each_league(client, app):
    from tests.leagues.helpers import league_body, operator

    op = operator(client, app)
    (ana,) = new_players(client, 1)
    auth = {"Authorization": f"Bearer {op['token']}"}
    lid = client.post("/v1/leagues", json=league_body(), headers=auth).get_json()["id"]
    assert client.post(f"/v1/leagues/{lid}/join", headers=bearer(ana)).status_code == 200
    res = client.get(f"/v1/players/{ana['id']}")
    (rating,) = check(res, "GET", "/v1/players/{player_id}").get_json()["leagues"]
    assert (rating["league"], rating["ruleset"]) == (lid, "goblin-market")
    assert rating["mu"] == 25 and abs(rating["ordinal"] - (25 - 3 * rating["sigma"])) < 0.001

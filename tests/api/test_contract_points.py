"""Small contract points (#30.7, #30.8): the messages a client reads, every feed note type
documented, and a stale simultaneous choice told apart from one that was never legal."""

from __future__ import annotations

import re

from tests.api.helpers import bearer, new_players
from tests.api.openapi_check import spec
from tests.api.wild_trade import act, legal_offer, wild_trade
from tests.conftest import ROOT


def test_valid_json_without_a_content_type_is_told_to_send_one(api, client):
    res = client.post("/v1/players", data='{"name": "ana"}')  # valid JSON, no Content-Type
    assert res.status_code == 422
    body = res.get_json()
    assert body["errors"] == {"Content-Type": ["must be application/json"]}
    assert "not valid JSON" not in str(body)
    broken = client.post("/v1/players", data="{", content_type="application/json")
    assert broken.get_json()["errors"] == {"_body": ["not valid JSON"]}


def test_joining_a_cancelled_game_says_cancelled_not_started(api, client):
    ana, bo = new_players(client, 2)
    made = api.post("/v1/games", "", ana["token"], json={"ruleset": "gobcon", "players": 2})
    gid = made.get_json()["id"]
    assert api.delete("/v1/games/{id}", gid, ana["token"]).status_code == 204
    res = api.post("/v1/games/{id}/join", gid, bo["token"])
    assert res.status_code == 409 and res.get_json()["code"] == "game_not_waiting"
    assert "cancelled" in res.get_json()["detail"] and "started" not in res.get_json()["detail"]


def test_every_note_type_the_server_writes_is_documented_for_the_feed():
    sources = [ROOT / "service" / name for name in ("inbox.py", "lobby_commands.py")]
    written = set()
    for source in sources:
        text = source.read_text("utf-8")
        # a note: a `type` followed by the game it is about (commands have no `game`)
        written |= set(re.findall(r'"type": "([a-z_]+)",\s*(?:\*\*base|"game")', text))
        written |= set(re.findall(r'note\(\s*"([a-z_]+)"', text))
    schemas = spec()["components"]["schemas"]
    documented = set(schemas["FeedNote"]["properties"]["type"]["enum"])
    assert written and written <= documented, written - documented
    assert set(schemas["FeedStreamEvent"]["properties"]["event"]["enum"]) == {"turns", *documented}


def test_a_choice_taken_away_by_another_seat_answers_choice_stale(api, client, app):
    gid, seats, rnd = wild_trade(client, app)
    a, b = seats[0], seats[1]
    made = act(client, gid, a, legal_offer(client, gid, a, 1, rnd))["events"][0]
    legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(b)).get_json()
    decline = next(
        c
        for spec_ in legal["actions"]
        if spec_["type"] == "decline"
        for c in spec_["choices"] or []
        if c.get("offer") == made["data"]["id"]
    )
    act(client, gid, a, {"type": "withdraw", "offer": made["data"]["id"]})  # a moves first
    stale = api.post(
        "/v1/games/{id}/actions",
        gid,
        b["token"],
        json=decline,
        headers={"If-Match": f'"{legal["version"]}"'},
    )
    assert stale.status_code == 409 and stale.get_json()["code"] == "choice_stale"
    assert "offer_not_found" in stale.get_json()["detail"]
    # without the version read the server cannot tell: the rules' own answer
    blind = api.post("/v1/games/{id}/actions", gid, b["token"], json=decline)
    assert blind.status_code == 409 and blind.get_json()["code"] == "offer_not_found"
    # a choice that was never legal keeps the rules' own code, If-Match or not
    never = {"type": "decline", "offer": "no-such-offer"}
    res = api.post(
        "/v1/games/{id}/actions",
        gid,
        b["token"],
        json=never,
        headers={"If-Match": f'"{legal["version"]}"'},
    )
    assert res.status_code in (409, 422) and res.get_json()["code"] != "choice_stale"

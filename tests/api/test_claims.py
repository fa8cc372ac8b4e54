"""Claims and aborts that cannot be turned against other players (#49.2, #49.4): a claim
only after a floor every joiner sees before joining (the lobby, the game, the invitation
and its note), its idle time counted only from steps the claimer may see, and an abort
only before any opponent has moved."""

from __future__ import annotations

import json
import time

from cli.compose import create_app
from tests.api.helpers import bearer, by_seat, new_game, new_players
from tests.api.test_private_offer_stream import meetable_offer
from tests.api.wild_trade import act, wild_trade
from tests.conftest import TEST_CONFIG


def _verified(client, gid: str) -> dict:
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    return client.post("/v1/verify", json=bundle).get_json()


def test_a_claim_time_under_the_floor_is_refused_and_every_joiner_sees_the_claim_time(redis_url):
    """#49.4: a creator set `claim_after_s: 1`, shown neither in the lobby nor at the
    table, and claimed a second into the joiner's first turn."""
    config = {k: v for k, v in TEST_CONFIG.items() if k != "CLAIM_MIN_S"}  # the default
    client = create_app({**config, "REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url}).test_client()
    ana, bo = new_players(client, 2, prefix="cl")
    body = {"ruleset": "gobcon", "players": 2}
    for short in (1, 3600, 24 * 3600 - 1):
        res = client.post("/v1/games", json={**body, "claim_after_s": short}, headers=bearer(ana))
        assert res.status_code == 422, res.get_json()
        assert res.headers["Content-Type"] == "application/problem+json"
        assert list(res.get_json()["errors"]) == ["claim_after_s"]
    assert client.get("/v1/games?status=waiting").get_json()["games"] == []  # nothing written
    listed = client.post(
        "/v1/games", json={**body, "claim_after_s": 2 * 24 * 3600}, headers=bearer(ana)
    ).get_json()
    invite = {**body, "invite": [bo["id"]], "join": True, "unlisted": True}
    invited = client.post("/v1/games", json=invite, headers=bearer(ana)).get_json()
    timed = client.post(
        "/v1/games", json={**body, "decision_timeout_s": 60}, headers=bearer(ana)
    ).get_json()
    lobby = {g["id"]: g for g in client.get("/v1/games?status=waiting").get_json()["games"]}
    assert lobby[listed["id"]]["claim_after_s"] == 2 * 24 * 3600
    assert lobby[timed["id"]]["claim_after_s"] is None
    assert listed["claim_after_s"] == 2 * 24 * 3600
    mine = client.get("/v1/players/me/invitations", headers=bearer(bo)).get_json()
    assert [(i["game"], i["claim_after_s"]) for i in mine["invitations"]] == [
        (invited["id"], 3 * 24 * 3600)
    ]
    client.application.config["SSE_MAX_S"] = 0.5
    feed = client.get("/v1/players/me/feed", headers={**bearer(bo), "Last-Event-ID": "0"})
    notes = [
        json.loads(line[6:])
        for line in feed.get_data(as_text=True).splitlines()
        if line.startswith("data: ")
    ]
    note = next(n for n in notes if n["type"] == "invitation")
    assert note["game"] == invited["id"] and note["claim_after_s"] == 3 * 24 * 3600


def test_a_seat_cannot_abort_a_game_of_three_once_an_opponent_moved(api, client):
    """#49.4: with two seats moved and one not, any seat could abort and wipe the moves."""
    players = new_players(client, 3, prefix="ab")
    gid = new_game(client, players, ruleset="gobcon", decision_timeout_s=600)
    seats = by_seat(client, gid, players)
    moved: set[int] = set()
    while len(moved) < 2:  # two seats moved (a seat may owe twice in a row)
        owed = client.get(f"/v1/games/{gid}").get_json()["owed"][0]["seat"]
        legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(seats[owed])).get_json()
        choice = legal["actions"][0]["choices"][0]
        res = client.post(f"/v1/games/{gid}/actions", json=choice, headers=bearer(seats[owed]))
        assert res.status_code in (201, 202)
        moved.add(owed)
    for seat in range(3):  # the one that has not moved, and the two that have
        late = api.post("/v1/games/{id}/abort", gid, seats[seat]["token"])
        assert late.status_code == 409 and late.get_json()["code"] == "abort_too_late", (
            seat,
            moved,
        )
    assert client.get(f"/v1/games/{gid}").get_json()["status"] == "active"


def _claim(client, gid: str, player: dict):
    return client.post(f"/v1/games/{gid}/claim", headers=bearer(player))


def test_a_refused_claim_counts_no_seconds_from_others_private_steps(client, app):
    """#49.2: a seat that declared `done` in an untimed wild trade claimed again and
    again; each refusal said "idle N s", and N fell to 0 right after two other seats'
    private offer. Now the idle time runs from what the claimer may see, so others'
    private steps neither reset it nor keep the claim away, and the audit agrees."""
    gid, seats, _ = wild_trade(client, app, claim_after_s=3)
    a, b, c = seats[0], seats[1], seats[2]
    act(client, gid, c, {"type": "done"})
    seen = time.monotonic()  # c's last public step
    time.sleep(1.2)
    first = _claim(client, gid, c)
    assert first.status_code == 409 and first.get_json()["code"] == "claim_too_early"
    assert "idle 1 s" in first.get_json()["detail"]
    act(client, gid, a, meetable_offer(app, gid, 0, 1))  # private: a and b only
    after = _claim(client, gid, c)
    assert after.status_code == 409
    said = int(after.get_json()["detail"].split("idle ")[1].split(" s")[0])
    assert said >= 1, after.get_json()  # not reset to 0 by the offer c may not see
    time.sleep(max(0.0, seen + 3.2 - time.monotonic()))
    act(client, gid, b, {"type": "decline", "offer": _offer_to(client, gid, b)})  # private
    done = _claim(client, gid, c)
    assert done.status_code == 200, done.get_json()
    assert done.get_json()["result"]["reason"] == "abandoned"
    report = _verified(client, gid)
    assert report["ok"], report


def _offer_to(client, gid: str, player: dict) -> str:
    legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(player)).get_json()
    return next(a for a in legal["actions"] if a["type"] == "decline")["choices"][0]["offer"]

"""Sitting at a table with named people: handles and GET /players/me, private (unlisted)
games, invitations with their answers and expiry, rematch offers."""

from __future__ import annotations

import json
import random
import time

from service import tables
from tests.api.helpers import by_seat, new_game, new_players, play_to_end
from tests.api.openapi_check import CheckedClient, sse_frames


def _register(api, name: str, handle: str | None = None) -> dict:
    body = {"name": name, **({"handle": handle} if handle else {})}
    res = api.post("/v1/players", json=body)
    assert res.status_code == 201, res.get_json()
    return res.get_json()


def _notes(client, player: dict, kind: str) -> list[dict]:
    """The player's feed notes of one type; every note is checked against the spec's
    FeedNote (its `type` among the documented ones)."""
    client.application.config["SSE_MAX_S"] = 0.5  # the feed closes soon: read what it holds
    api = CheckedClient(client)
    feed = api.get("/v1/players/me/feed", "", player["token"], headers={"Last-Event-ID": "0"})
    frames = sse_frames(feed.get_data(as_text=True))
    return [json.loads(f["data"]) for f in frames if f.get("event") == kind]


def _verify(client, gid: str) -> dict:
    report = client.post("/v1/verify", json=client.get(f"/v1/games/{gid}/export").get_json())
    assert report.status_code == 200, report.get_json()
    return report.get_json()


def test_handles_are_unique_case_insensitively_and_me_says_who_a_token_is(api, client):
    ana = _register(api, "Ana Lopez", "Ana")
    assert ana["handle"] == "Ana"
    taken = api.post("/v1/players", json={"name": "Someone else", "handle": "aNA"})
    assert taken.status_code == 409 and taken.get_json()["code"] == "handle_taken"
    same_name = _register(api, "Ana Lopez")  # names are display names: not unique
    assert same_name["handle"] is None and same_name["id"] != ana["id"]
    for bad in ("p_ana", "a", "ana lopez", "-ana"):
        res = api.post("/v1/players", json={"name": "x", "handle": bad})
        assert res.status_code == 422 and "handle" in res.get_json()["errors"], bad
    me = api.get("/v1/players/me", "", ana["token"]).get_json()
    assert (me["id"], me["name"], me["handle"]) == (ana["id"], "Ana Lopez", "Ana")
    assert api.get("/v1/players/me").status_code == 401
    assert client.get(f"/v1/players/{ana['id']}").get_json()["handle"] == "Ana"


def test_a_player_without_a_handle_chooses_one_and_can_then_be_invited_by_it(api, client):
    ana, bo = _register(api, "Ana", "ana"), _register(api, "Bo")
    taken = api.call("PATCH", "/v1/players/me", "", bo["token"], json={"handle": "ANA"})
    assert taken.status_code == 409 and taken.get_json()["code"] == "handle_taken"
    bad = api.call("PATCH", "/v1/players/me", "", bo["token"], json={"handle": "p_bo"})
    assert bad.status_code == 422 and "handle" in bad.get_json()["errors"]
    chosen = api.call("PATCH", "/v1/players/me", "", bo["token"], json={"handle": "Bo"})
    assert chosen.status_code == 200 and chosen.get_json()["handle"] == "Bo"
    body = {"ruleset": "gobcon", "players": 2, "invite": ["bo"], "join": True}
    game = api.post("/v1/games", "", ana["token"], json=body).get_json()
    assert game["invited"][1]["player"] == bo["id"]
    # a new handle frees the old one for others
    renamed = api.call("PATCH", "/v1/players/me", "", bo["token"], json={"handle": "bobby"})
    assert renamed.status_code == 200
    assert _register(api, "Another Bo", "bo")["handle"] == "bo"


def test_an_unlisted_game_stays_out_of_the_lobby_and_its_open_seats_need_the_secret(api, client):
    ana, bo, cy = (_register(api, n) for n in ("ana", "bo", "cy"))
    body = {"ruleset": "gobcon", "players": 3, "unlisted": True, "join": True}
    created = api.post("/v1/games", "", ana["token"], json=body)
    assert created.status_code == 201
    game = created.get_json()
    gid, secret = game["id"], game["secret"]
    assert game["unlisted"] and secret and game["you"] == 0
    lobby = [
        g["id"]
        for g in api.get("/v1/games", query_string={"status": "waiting"}).get_json()["games"]
    ]
    assert gid not in lobby
    assert gid not in [
        g["id"] for g in client.get(f"/v1/games?player={ana['id']}").get_json()["games"]
    ]
    assert gid in [
        g["id"] for g in api.get("/v1/players/me/games", "", ana["token"]).get_json()["games"]
    ]
    # the secret is the creator's alone: not for others, never in the log
    assert api.get("/v1/games/{id}", gid, bo["token"]).get_json()["secret"] is None
    assert api.get("/v1/games/{id}", gid).get_json()["secret"] is None
    assert api.get("/v1/games/{id}", gid, ana["token"]).get_json()["secret"] == secret
    refused = api.post("/v1/games/{id}/join", gid, bo["token"])
    assert refused.status_code == 403 and refused.get_json()["code"] == "invitation_required"
    wrong = api.post("/v1/games/{id}/join", gid, bo["token"], json={"secret": "guess"})
    assert wrong.status_code == 403
    assert (
        api.post("/v1/games/{id}/join", gid, bo["token"], json={"secret": secret}).status_code
        == 200
    )
    assert (
        api.post("/v1/games/{id}/join", gid, cy["token"], json={"secret": secret}).status_code
        == 200
    )
    assert client.get(f"/v1/games/{gid}").get_json()["status"] == "active"
    log = json.dumps(client.get(f"/v1/games/{gid}/events?after=0").get_json())
    assert secret not in log


def test_an_invitation_holds_a_seat_and_the_inviter_sees_each_answer(api, client, app):
    ana = _register(api, "Ana", "ana")
    bo = _register(api, "Bo", "bo")
    cy = _register(api, "Cy", "cy")
    dee, stranger = _register(api, "Dee"), _register(api, "Stranger")
    body = {
        "ruleset": "goblin-market",
        "players": 4,
        "join": True,
        "invite": ["BO", cy["id"], dee["id"]],
    }
    game = api.post("/v1/games", "", ana["token"], json=body).get_json()
    gid = game["id"]
    assert [(i["player"], i["answer"]) for i in game["invited"]] == [
        (ana["id"], "accepted"),
        (bo["id"], "pending"),
        (cy["id"], "pending"),
        (dee["id"], "pending"),
    ]
    assert game["reserved_until"] and not game["unlisted"]
    # a listed game shows who holds its seats, and a stranger cannot take one
    listed = api.get("/v1/games", query_string={"status": "waiting"}).get_json()["games"]
    assert [g["invited"] for g in listed if g["id"] == gid][0][1]["player"] == bo["id"]
    full = api.post("/v1/games/{id}/join", gid, stranger["token"])
    assert full.status_code == 409 and full.get_json()["code"] == "seat_reserved"
    # invitees see it in their feed and their list
    [note] = _notes(client, bo, "invitation")
    assert (note["game"], note["from"]) == (gid, ana["id"])
    mine = api.get("/v1/players/me/invitations", "", bo["token"]).get_json()["invitations"]
    assert [i["game"] for i in mine] == [gid]
    # bo accepts by joining, cy declines: cy's seat is free for the stranger
    assert api.post("/v1/games/{id}/join", gid, bo["token"]).status_code == 200
    assert api.get("/v1/players/me/invitations", "", bo["token"]).get_json()["invitations"] == []
    declined = api.post("/v1/games/{id}/decline", gid, cy["token"])
    assert declined.status_code == 200
    again = api.post("/v1/games/{id}/decline", gid, cy["token"])
    assert again.status_code == 409 and again.get_json()["code"] == "not_invited"
    assert api.post("/v1/games/{id}/join", gid, stranger["token"]).status_code == 200
    answers = [(n["player"], n["answer"]) for n in _notes(client, ana, "invitation_answered")]
    assert answers == [(bo["id"], "accepted"), (cy["id"], "declined")]
    # the game starts when the last held seat is taken
    assert client.get(f"/v1/games/{gid}").get_json()["status"] == "waiting"
    assert api.post("/v1/games/{id}/join", gid, dee["token"]).status_code == 200
    assert client.get(f"/v1/games/{gid}").get_json()["status"] == "active"
    unknown = api.post("/v1/games", "", ana["token"], json={**body, "invite": ["nobody-here"]})
    assert unknown.status_code == 422 and "invite[0]" in unknown.get_json()["errors"]
    too_many = {**body, "invite": [bo["id"], cy["id"], dee["id"], stranger["id"]]}
    assert api.post("/v1/games", "", ana["token"], json=too_many).status_code == 422


def test_held_seats_lapse_and_the_game_then_opens_to_the_lobby_if_its_creator_chose(
    api, client, app
):
    ana, bo, cy = (_register(api, n) for n in ("ana", "bo", "cy"))
    body = {
        "ruleset": "gobcon",
        "players": 2,
        "invite": [bo["id"]],
        "join": True,
        "unlisted": True,
        "open_when_lapsed": True,
        "reserve_s": 1,
    }
    gid = api.post("/v1/games", "", ana["token"], json=body).get_json()["id"]
    deps = app.extensions["marketfold"]
    due = deps.redis.zscore("mf:deadlines", f"release|{gid}|reservations")
    assert due is not None and due <= time.time() + 2  # the worker's job is scheduled
    time.sleep(1.1)
    assert tables.lapse(deps, gid) == "applied"
    assert tables.lapse(deps, gid) == "noop"
    game = api.get("/v1/games/{id}", gid).get_json()
    assert [(i["player"], i["answer"]) for i in game["invited"]][1] == (bo["id"], "lapsed")
    assert not game["unlisted"]
    lobby = [
        g["id"]
        for g in api.get("/v1/games", query_string={"status": "waiting"}).get_json()["games"]
    ]
    assert gid in lobby
    assert [n["answer"] for n in _notes(client, ana, "invitation_answered")] == ["lapsed"]
    assert api.post("/v1/games/{id}/join", gid, cy["token"]).status_code == 200  # no secret now
    late = api.post("/v1/games/{id}/join", gid, bo["token"])
    assert late.status_code == 409 and late.get_json()["code"] == "game_not_waiting"
    # finish it and verify: the terms, the lapse and the joins replay
    play_to_end(client, app, gid, by_seat(client, gid, [ana, cy]), random.Random(2))
    assert _verify(client, gid)["ok"]


def test_a_rematch_holds_the_former_seats_and_never_answers_with_a_game_the_caller_is_not_in(
    api, client, app
):
    players = new_players(client, 3)
    stranger = new_players(client, 1, prefix="x")[0]
    gid = new_game(client, players, options={"edition": "en"})
    play_to_end(client, app, gid, by_seat(client, gid, players), random.Random(4))
    first = api.post("/v1/games/{id}/rematch", gid, players[0]["token"], json={"reserve_s": 60})
    assert first.status_code == 201
    new = first.get_json()
    assert new["rematch_of"] == gid and new["unlisted"] and new["you"] == 0
    held = [(i["player"], i["answer"]) for i in new["invited"]]
    assert held == [
        (players[0]["id"], "accepted"),
        (players[1]["id"], "pending"),
        (players[2]["id"], "pending"),
    ]
    # nobody else can take a former player's seat, not even with the secret
    secret = api.get("/v1/games/{id}", new["id"], players[0]["token"]).get_json()["secret"]
    taken = api.post("/v1/games/{id}/join", new["id"], stranger["token"], json={"secret": secret})
    assert taken.status_code == 409 and taken.get_json()["code"] == "seat_reserved"
    # one former player declines: the seat frees; the stranger takes it with the link
    assert api.post("/v1/games/{id}/decline", new["id"], players[2]["token"]).status_code == 200
    assert (
        api.post(
            "/v1/games/{id}/join", new["id"], stranger["token"], json={"secret": secret}
        ).status_code
        == 200
    )
    # the other accepts by asking for the rematch: the game starts with it seated
    second = api.post("/v1/games/{id}/rematch", gid, players[1]["token"])
    assert second.status_code == 200 and second.get_json()["you"] is not None
    assert second.get_json()["status"] == "active"
    # the player who declined asks again: the rematch went ahead without it
    gone = api.post("/v1/games/{id}/rematch", gid, players[2]["token"])
    assert gone.status_code == 409 and gone.get_json()["code"] == "rematch_gone"
    rematch_notes = [n["game"] for n in _notes(client, players[1], "rematch")]
    assert rematch_notes == [new["id"]]


def test_the_old_rematch_bug_a_stranger_cannot_take_the_opponents_seat(api, client, app):
    """Before reservations a stranger joined the rematch first and the opponent's own
    rematch call answered 200 with a game it was not in."""
    players = new_players(client, 2)
    stranger = new_players(client, 1, prefix="x")[0]
    gid = new_game(client, players, ruleset="gobcon")
    play_to_end(client, app, gid, by_seat(client, gid, players), random.Random(1))
    new = api.post("/v1/games/{id}/rematch", gid, players[0]["token"]).get_json()
    assert api.post("/v1/games/{id}/join", new["id"], stranger["token"]).status_code in (403, 409)
    answer = api.post("/v1/games/{id}/rematch", gid, players[1]["token"])
    assert answer.status_code == 200
    assert answer.get_json()["you"] is not None and answer.get_json()["status"] == "active"
    seated = {s["player"] for s in answer.get_json()["seats"]}
    assert seated == {players[0]["id"], players[1]["id"]}


def test_an_invitation_game_verifies_with_every_answer(api, client, app):
    ana, bo, cy, dee = (_register(api, n) for n in ("ana", "bo", "cy", "dee"))
    body = {"ruleset": "goblin-market", "players": 3, "join": True, "invite": [bo["id"], cy["id"]]}
    gid = api.post("/v1/games", "", ana["token"], json=body).get_json()["id"]
    api.post("/v1/games/{id}/decline", gid, cy["token"])
    api.post("/v1/games/{id}/join", gid, bo["token"])
    api.post("/v1/games/{id}/join", gid, dee["token"])
    play_to_end(client, app, gid, by_seat(client, gid, [ana, bo, dee]), random.Random(3))
    report = _verify(client, gid)
    assert report["ok"], report
    types = [e["type"] for e in client.get(f"/v1/games/{gid}/export").get_json()["events"]]
    assert types[:2] == ["game.Created", "game.Terms"] and "game.InvitationDeclined" in types


def test_a_worker_frees_the_held_seats_at_reserved_until(api, client, worker_process):
    ana, bo, cy = (_register(api, n) for n in ("ana", "bo", "cy"))
    body = {"ruleset": "gobcon", "players": 2, "invite": [bo["id"]], "join": True, "reserve_s": 1}
    gid = api.post("/v1/games", "", ana["token"], json=body).get_json()["id"]
    assert api.post("/v1/games/{id}/join", gid, cy["token"]).status_code == 409  # held for bo
    worker_process()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        answers = [i["answer"] for i in api.get("/v1/games/{id}", gid).get_json()["invited"]]
        if answers[1] == "lapsed":
            break
        time.sleep(0.2)
    assert answers == ["accepted", "lapsed"]
    assert api.post("/v1/games/{id}/join", gid, cy["token"]).status_code == 200


def test_an_expire_member_stored_by_the_older_version_still_frees_the_held_seats(api, client, app):
    """Reservations had no job of their own before `release`: an `expire|<game>|
    reservations` member left in the index by that version still frees the seats."""
    from workers import jobs

    ana, bo, cy = (_register(api, n) for n in ("ana", "bo", "cy"))
    body = {"ruleset": "gobcon", "players": 2, "invite": [bo["id"]], "join": True, "reserve_s": 1}
    gid = api.post("/v1/games", "", ana["token"], json=body).get_json()["id"]
    time.sleep(1.1)
    jobs.use(app.extensions["marketfold"])
    try:
        assert jobs.expire(gid, "reservations") == "applied"  # as the older sweep enqueued it
        assert jobs.release(gid, "reservations") == "noop"  # the new job finds it done
    finally:
        jobs._deps.clear()
    answers = [i["answer"] for i in api.get("/v1/games/{id}", gid).get_json()["invited"]]
    assert answers == ["accepted", "lapsed"]
    assert api.post("/v1/games/{id}/join", gid, cy["token"]).status_code == 200


def test_a_rematch_answers_its_secret_to_its_creator_only(api, client, app):
    """#49.7: docs/clients.md says the creator gets the secret in the 201 of the call that
    made the game; `POST /rematch` answered `secret: null` to everyone."""
    players = new_players(client, 3, prefix="rs")
    gid = new_game(client, players)
    play_to_end(client, app, gid, by_seat(client, gid, players), random.Random(6))
    first = api.post("/v1/games/{id}/rematch", gid, players[0]["token"])
    assert first.status_code == 201
    new = first.get_json()
    looked = api.get("/v1/games/{id}", new["id"], players[0]["token"]).get_json()["secret"]
    assert new["secret"] and new["secret"] == looked
    second = api.post("/v1/games/{id}/rematch", gid, players[1]["token"])
    assert second.status_code == 200 and second.get_json()["secret"] is None

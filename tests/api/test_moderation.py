"""Moderation (docs/operations.md, "Moderation"): any player reports a player or a chat
message; the server's operators read reports, mute, ban and hide a message, each action
logged and counted."""

from __future__ import annotations

import random

from tests.api.helpers import bearer, new_game, new_players, random_action


def setup(client, app):
    op, ana, bo, cy = new_players(client, 4, "m")
    app.config["OPERATORS"] = [op["id"]]
    return op, ana, bo, cy


def test_a_report_reaches_the_operators_and_only_them(client, app):
    op, ana, bo, cy = setup(client, app)
    gid = new_game(client, [ana, bo, cy])
    said = client.post(f"/v1/games/{gid}/chat", json={"text": "you all stink"}, headers=bearer(bo))
    message = said.get_json()["id"]
    missing = client.post("/v1/reports", json={"player": bo["id"]}, headers=bearer(ana))
    assert missing.status_code == 422 and "reason" in missing.get_json()["errors"]
    filed = client.post(
        "/v1/reports",
        json={"game": gid, "message": message, "reason": "insults at the table"},
        headers=bearer(ana),
    )
    assert filed.status_code == 201 and filed.get_json()["player"] == bo["id"]  # the author
    assert client.get("/v1/reports", headers=bearer(ana)).get_json()["code"] == "not_operator"
    listed = client.get("/v1/reports?status=open", headers=bearer(op)).get_json()["reports"]
    assert [r["reason"] for r in listed] == ["insults at the table"]
    rid = listed[0]["id"]
    closed = client.post(f"/v1/reports/{rid}/close", json={"note": "muted"}, headers=bearer(op))
    assert closed.get_json()["status"] == "closed"
    assert client.get("/v1/reports?status=open", headers=bearer(op)).get_json()["reports"] == []
    again = client.post(f"/v1/reports/{rid}/close", json={"note": "x"}, headers=bearer(op))
    assert again.status_code == 409


def test_a_muted_player_cannot_chat_and_a_hidden_message_loses_its_text(client, app):
    op, ana, bo, cy = setup(client, app)
    gid = new_game(client, [ana, bo, cy])
    message = client.post(
        f"/v1/games/{gid}/chat", json={"text": "a slur"}, headers=bearer(bo)
    ).get_json()["id"]
    no_reason = client.post(f"/v1/players/{bo['id']}/mute", json={}, headers=bearer(op))
    assert no_reason.status_code == 422
    assert (
        client.post(
            f"/v1/players/{bo['id']}/mute", json={"reason": "slurs"}, headers=bearer(ana)
        ).status_code
        == 403
    )
    muted = client.post(
        f"/v1/players/{bo['id']}/mute", json={"reason": "slurs"}, headers=bearer(op)
    )
    assert muted.get_json()["muted"]["reason"] == "slurs"
    refused = client.post(f"/v1/games/{gid}/chat", json={"text": "hi"}, headers=bearer(bo))
    assert refused.status_code == 403 and refused.get_json()["code"] == "muted"
    hid = client.post(
        f"/v1/games/{gid}/chat/{message}/hide", json={"reason": "a slur"}, headers=bearer(op)
    )
    assert hid.status_code == 200
    seen = client.get(f"/v1/games/{gid}/chat", headers=bearer(ana)).get_json()["messages"]
    assert seen[0]["text"] == "" and seen[0]["hidden"] == {"reason": "a slur"}
    kept = client.get(f"/v1/games/{gid}/chat", headers=bearer(op)).get_json()["messages"]
    assert kept[0]["text"] == "a slur" and kept[0]["hidden"]["by"] == op["id"]
    client.delete(f"/v1/players/{bo['id']}/mute", headers=bearer(op))
    assert (
        client.post(f"/v1/games/{gid}/chat", json={"text": "sorry"}, headers=bearer(bo)).status_code
        == 201
    )


def test_a_ban_stops_every_token_at_once_and_frees_the_players_games(client, app):
    op, ana, bo, cy = setup(client, app)
    extra = client.post("/v1/players/me/tokens", headers=bearer(bo)).get_json()
    running = new_game(client, [ana, bo, cy])
    mine = client.post(
        "/v1/games", json={"ruleset": "gobcon", "players": 2}, headers=bearer(bo)
    ).get_json()["id"]
    client.post(f"/v1/games/{mine}/join", headers=bearer(bo))
    rnd = random.Random(1)
    legal = client.get(f"/v1/games/{running}/legal", headers=bearer(bo)).get_json()
    if legal["actions"]:  # a token that has acted is held in the API's cache
        client.post(
            f"/v1/games/{running}/actions",
            json=random_action(rnd, legal["actions"]),
            headers=bearer(bo),
        )
    done = client.post(
        f"/v1/players/{bo['id']}/ban", json={"reason": "cheating"}, headers=bearer(op)
    )
    assert done.status_code == 200, done.get_json()
    assert {g["game"]: g["done"] for g in done.get_json()["games"]} == {
        running: "resigned",
        mine: "cancelled",
    }
    for token in (bo["token"], extra["token"]):
        res = client.get("/v1/players/me", headers={"Authorization": f"Bearer {token}"})
        assert res.status_code == 401 and res.get_json()["code"] == "banned"
        assert "cheating" in res.get_json()["detail"]
    legal = client.get(f"/v1/games/{running}/legal", headers=bearer(bo))
    assert legal.status_code == 401
    assert client.get(f"/v1/games/{mine}").get_json()["status"] == "cancelled"
    assert client.get(f"/v1/games/{running}").get_json()["status"] == "active"  # played on
    assert (
        client.post(
            f"/v1/players/{op['id']}/ban", json={"reason": "x"}, headers=bearer(op)
        ).status_code
        == 409
    )
    client.delete(f"/v1/players/{bo['id']}/ban", headers=bearer(op))
    assert client.get("/v1/players/me", headers=bearer(bo)).status_code == 200
    metrics = client.get("/metrics").get_data(as_text=True)
    assert 'marketfold_moderation_total{action="ban"}' in metrics

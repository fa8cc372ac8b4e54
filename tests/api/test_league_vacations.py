"""Vacations: a member declares days away within the league's limit; their deadlines in
those days move on by the vacation's length, visibly to the table (the game's log and its
owed deadlines); bad or excessive declarations are refused and change nothing."""

from __future__ import annotations

import random
from datetime import datetime

from tests.api.helpers import bearer, new_players, play_to_end
from tests.leagues.helpers import in_seconds, running_league

DAY = 86400


def when(iso: str) -> float:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def test_a_vacation_moves_the_members_deadlines_in_it_and_the_table_sees_it(client, app):
    outsider = new_players(client, 1, "x")[0]
    lid, op, players = running_league(
        client, app, 3, rounds=2, table_size=3, decision_timeout_s=600, vacation_days=3
    )
    gid = client.get(f"/v1/leagues/{lid}/rounds/1").get_json()["tables"][0]["game"]
    game = client.get(f"/v1/games/{gid}").get_json()
    owed = game["owed"][0]
    away = next(p for p in players if p["id"] == game["seats"][owed["seat"]]["player"])
    url = f"/v1/leagues/{lid}/vacations"
    version = client.get(f"/v1/leagues/{lid}").get_json()["version"]
    for bad, status, code, field in [
        ({"from": in_seconds(60)}, 422, "invalid_body", "until"),
        ({"from": in_seconds(-3600), "until": in_seconds(DAY)}, 422, "invalid_body", "from"),
        ({"from": in_seconds(DAY), "until": in_seconds(60)}, 422, "invalid_body", "until"),
        ({"from": in_seconds(0), "until": in_seconds(4 * DAY)}, 409, "vacation_limit", "until"),
    ]:
        res = client.post(url, json=bad, headers=bearer(away))
        assert (res.status_code, res.get_json()["code"]) == (status, code), (bad, res.get_json())
        assert field in res.get_json()["errors"]
    res = client.post(
        url, json={"from": in_seconds(0), "until": in_seconds(DAY)}, headers=bearer(outsider)
    )
    assert res.status_code == 404 and res.get_json()["code"] == "member_not_found"
    assert client.get(f"/v1/leagues/{lid}").get_json()["version"] == version  # nothing changed

    start, end = in_seconds(1), in_seconds(2 * DAY)
    res = client.post(url, json={"from": start, "until": end}, headers=bearer(away))
    assert res.status_code == 201, res.get_json()
    assert [(when(v["from"]), when(v["until"])) for v in res.get_json()["vacations"]] == [
        (when(start), when(end))
    ]
    moved = client.get(f"/v1/games/{gid}").get_json()["owed"][0]["deadline"]
    assert abs(when(moved) - (when(owed["deadline"]) + (when(end) - when(start)))) < 0.01
    logged = [
        e
        for e in client.get(f"/v1/games/{gid}/events").get_json()["events"]
        if e["type"] == "game.SeatAway"
    ]
    assert [(e["data"]["seat"], e["data"]["by"]) for e in logged] == [(owed["seat"], away["id"])]
    # the whole table sees who is away and until when, even a spectator
    shown = client.get(f"/v1/games/{gid}").get_json()["away"]
    assert [(a["seat"], when(a["from"]), when(a["until"])) for a in shown] == [
        (owed["seat"], when(start), when(end))
    ]
    member = next(
        m
        for m in client.get(f"/v1/leagues/{lid}").get_json()["members"]
        if m["player"] == away["id"]
    )
    assert len(member["vacations"]) == 1

    more = client.post(
        url, json={"from": in_seconds(DAY), "until": in_seconds(DAY + 3600)}, headers=bearer(away)
    )
    assert more.status_code == 409 and more.get_json()["code"] == "vacation_overlaps"
    over = client.post(
        url, json={"from": in_seconds(3 * DAY), "until": in_seconds(5 * DAY)}, headers=bearer(away)
    )
    assert over.status_code == 409 and "1 left" in over.get_json()["detail"]
    seats = {
        client.get(f"/v1/games/{gid}", headers=bearer(p)).get_json()["you"]: p for p in players
    }
    play_to_end(client, app, gid, seats, random.Random(3))  # one may move while away, too
    checked = client.post("/v1/verify", json=client.get(f"/v1/games/{gid}/export").get_json())
    assert checked.get_json().get("ok"), checked.get_json()  # the audit reads game.SeatAway

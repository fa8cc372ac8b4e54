"""Remedies after a league's start, through the HTTP API: a substitute takes a member's
place (in future rounds and at their running game, the log saying who played which
moves), a withdrawn member is reinstated, a member removed, one table paused and
resumed; each is in the league's log with who did it, and the people concerned are told."""

from __future__ import annotations

import json
import random
import time

from events import keys
from service import league_commands
from tests.api.helpers import bearer, new_players, play_to_end
from tests.leagues.helpers import running_league


def feed(r, player) -> list[dict]:
    return [json.loads(f[b"n"]) for _, f in r.xrange(keys.player_feed(player["id"]))]


def seats_of(client, gid, players) -> dict[int, dict]:
    out = {}
    for p in players:
        you = client.get(f"/v1/games/{gid}", headers=bearer(p)).get_json().get("you")
        if you is not None:
            out[you] = p
    return out


def test_a_substitute_takes_the_seat_now_and_the_place_in_later_rounds(client, app, r):
    lid, op, players = running_league(client, app, 3, rounds=2, table_size=3)
    sub, stranger = new_players(client, 2, "s")
    client.patch("/v1/players/me", json={"handle": "subby"}, headers=bearer(sub))
    url = f"/v1/leagues/{lid}"
    gid = client.get(f"{url}/rounds/1").get_json()["tables"][0]["game"]
    absent = players[0]
    seat = seats_of(client, gid, players)
    seat = next(s for s, p in seat.items() if p is absent)
    version = client.get(url).get_json()["version"]
    for bad, status, code in [
        ({"player": absent["id"]}, 422, "invalid_body"),
        ({"player": "p_nobody", "substitute": sub["id"]}, 404, "member_not_found"),
        ({"player": absent["id"], "substitute": "no-such-handle"}, 404, "player_not_found"),
        ({"player": absent["id"], "substitute": players[1]["id"]}, 409, "already_member"),
    ]:
        res = client.post(f"{url}/substitutions", json=bad, headers=bearer(op))
        assert (res.status_code, res.get_json()["code"]) == (status, code), (bad, res.get_json())
    res = client.post(
        f"{url}/substitutions",
        json={"player": absent["id"], "substitute": "subby"},
        headers=bearer(stranger),
    )
    assert res.status_code == 403 and res.get_json()["code"] == "not_league_organizer"
    assert client.get(url).get_json()["version"] == version  # nothing half-applied

    res = client.post(
        f"{url}/substitutions",
        json={"player": absent["id"], "substitute": "subby"},
        headers=bearer(op),
    )
    assert res.status_code == 200, res.get_json()
    members = {m["player"]: m for m in res.get_json()["members"]}
    assert members[absent["id"]]["withdrawn_reason"] == "substituted"
    assert members[sub["id"]]["substitute_for"] == absent["id"]
    second = res.get_json()["schedule"][1]["tables"][0]["players"]
    assert sub["id"] in second and absent["id"] not in second

    seats_now = client.get(f"{url}/rounds/1").get_json()["tables"][0]["players"]
    assert [r.get("substitute") for r in seats_now if r["player"] == absent["id"]] == [sub["id"]]
    game = client.get(f"/v1/games/{gid}", headers=bearer(sub)).get_json()
    assert game["you"] == seat and game["seats"][seat]["player"] == sub["id"]
    taken = [
        e
        for e in client.get(f"/v1/games/{gid}/events").get_json()["events"]
        if e["type"] == "game.SeatTaken"
    ]
    assert [
        (t["data"]["seat"], t["data"]["player"], t["data"]["replaces"], t["data"]["by"])
        for t in taken
    ] == [(seat, sub["id"], absent["id"], op["id"])]
    refused = client.get(f"/v1/games/{gid}/legal", headers=bearer(absent))
    assert refused.status_code == 403  # the seat is no longer theirs
    log = client.get(f"{url}/events").get_json()["events"]
    done = [e["data"] for e in log if e["type"] == "league.MemberSubstituted"]
    assert done == [
        {
            "player": absent["id"],
            "substitute": sub["id"],
            "name": sub["name"],
            "round": 2,
            "by": op["id"],
            "games": [gid],
        }
    ]
    for who in (absent, sub, op):
        notes = [n for n in feed(r, who) if n["type"] == "substituted"]
        assert notes and notes[-1]["substitute"] == sub["id"] and notes[-1]["by"] == op["id"]

    seats = {s: p for s, p in seats_of(client, gid, [*players, sub]).items()}
    assert seats[seat] is sub
    play_to_end(client, app, gid, seats, random.Random(4))
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    checked = client.post("/v1/verify", json=bundle).get_json()
    assert checked.get("ok"), checked  # the audit replays it
    league_commands.record_result(app.extensions["marketfold"], lid, gid)
    page = client.get(f"/leagues/{lid}").get_data(as_text=True)
    assert f"{absent['name']} → {sub['name']} (" in page  # the substitute's place


def test_a_removed_member_is_reinstated_and_both_are_told(client, app, r):
    lid, op, players = running_league(client, app, 4, rounds=3, table_size={"min": 3, "max": 4})
    url = f"/v1/leagues/{lid}"
    gone = players[0]
    res = client.delete(f"{url}/members/{gone['id']}", headers=bearer(op))
    assert res.status_code == 200 and res.get_json()["withdrawn_from_round"] == 2
    league = client.get(url).get_json()
    assert {m["player"]: m["withdrawn_reason"] for m in league["members"]}[gone["id"]] == "removed"
    refused = client.post(f"{url}/members/{gone['id']}/reinstate", headers=bearer(players[1]))
    assert refused.status_code == 403 and refused.get_json()["code"] == "not_league_organizer"
    back = client.post(f"{url}/members/{gone['id']}/reinstate", headers=bearer(op))
    assert back.status_code == 200 and back.get_json()["withdrawn_from_round"] is None
    league = client.get(url).get_json()
    assert gone["id"] in {p for t in league["schedule"][1]["tables"] for p in t["players"]}
    again = client.post(f"{url}/members/{gone['id']}/reinstate", headers=bearer(op))
    assert again.status_code == 409 and again.get_json()["code"] == "not_withdrawn"
    missing = client.post(f"{url}/members/p_nobody/reinstate", headers=bearer(op))
    assert missing.status_code == 404 and missing.get_json()["code"] == "member_not_found"
    kinds = [n["type"] for n in feed(r, gone) if n["type"] in ("removed", "reinstated")]
    assert kinds == ["removed", "reinstated"]
    told = [n for n in feed(r, op) if n["type"] in ("removed", "reinstated")]
    assert [(n["type"], n["player"]) for n in told] == [
        ("removed", gone["id"]),
        ("reinstated", gone["id"]),
    ]
    log = client.get(f"{url}/events").get_json()["events"]
    withdrawn = next(e["data"] for e in log if e["type"] == "league.MemberWithdrawn")
    assert withdrawn["reason"] == "removed" and withdrawn["who"] == op["id"]


def test_one_table_or_the_whole_league_is_paused_and_resumed_with_its_time_left(client, app):
    lid, op, players = running_league(
        client, app, 3, rounds=2, table_size=3, decision_timeout_s=600
    )
    url = f"/v1/leagues/{lid}"
    gid = client.get(f"{url}/rounds/1").get_json()["tables"][0]["game"]
    before = client.get(f"/v1/games/{gid}").get_json()["owed"][0]["deadline"]
    res = client.post(f"{url}/rounds/1/tables/1/pause", headers=bearer(op))
    assert res.status_code == 200
    assert client.get(f"{url}/rounds/1").get_json()["tables"][0]["status"] == "paused"
    assert client.get(f"/v1/games/{gid}").get_json()["owed"][0]["deadline"] is None
    # since when, on the game and on the round (the table page and the league page say it)
    paused_at = client.get(f"/v1/games/{gid}").get_json()["paused_at"]
    assert abs(when(paused_at) - time.time()) < 30
    assert client.get(f"{url}/rounds/1").get_json()["tables"][0]["paused_at"] == paused_at
    seats = seats_of(client, gid, players)
    owes = client.get(f"/v1/games/{gid}").get_json()["owed"][0]["seat"]
    legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(seats[owes])).get_json()
    move = client.post(
        f"/v1/games/{gid}/actions",
        json=legal["actions"][0]["example"]
        if "example" in legal["actions"][0]
        else {"type": "pass"},
        headers=bearer(seats[owes]),
    )
    assert move.status_code == 409 and move.get_json()["code"] == "game_paused"
    again = client.post(f"{url}/rounds/1/tables/1/pause", headers=bearer(op))
    assert again.status_code == 409 and again.get_json()["code"] == "table_paused"
    for bad, code in [
        ("/rounds/1/tables/9/pause", "table_not_found"),
        ("/rounds/2/tables/1/pause", "round_not_found"),
    ]:
        res = client.post(url + bad, headers=bearer(op))
        assert res.status_code == 404 and res.get_json()["code"] == code
    time.sleep(1.0)
    res = client.post(f"{url}/rounds/1/tables/1/resume", headers=bearer(op))
    assert res.status_code == 200
    after = client.get(f"/v1/games/{gid}").get_json()["owed"][0]["deadline"]
    assert client.get(f"/v1/games/{gid}").get_json()["paused_at"] is None
    assert client.get(f"{url}/rounds/1").get_json()["tables"][0]["paused_at"] is None
    moved = when(after) - when(before)
    assert 1.0 <= moved < 5  # the time the clock stood still is given back
    events = client.get(f"/v1/games/{gid}/events").get_json()["events"]
    kinds = [e["type"] for e in events if e["type"] in ("game.Paused", "game.Resumed")]
    assert kinds == ["game.Paused", "game.Resumed"]
    extended = [e["data"] for e in events if e["type"] == "game.DeadlineExtended"]
    assert extended and extended[-1]["reason"] == "paused"
    log = client.get(f"{url}/events").get_json()["events"]
    assert [(e["type"], e["data"]["by"]) for e in log if "Table" in e["type"]] == [
        ("league.TablePaused", op["id"]),
        ("league.TableResumed", op["id"]),
    ]
    res = client.post(f"{url}/rounds/1/tables/1/resume", headers=bearer(op))
    assert res.status_code == 409 and res.get_json()["code"] == "table_not_paused"

    assert client.post(f"{url}/pause", headers=bearer(op)).status_code == 200
    assert client.get(f"/v1/games/{gid}").get_json()["owed"][0]["deadline"] is None
    assert client.post(f"{url}/resume", headers=bearer(op)).status_code == 200
    assert client.get(f"/v1/games/{gid}").get_json()["owed"][0]["deadline"] is not None
    play_to_end(client, app, gid, seats, random.Random(6))
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    checked = client.post("/v1/verify", json=bundle).get_json()
    assert checked.get("ok"), checked


def when(iso: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()

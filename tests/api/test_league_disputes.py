"""Disputes and rulings through the HTTP API: a seated player opens one, the organizer
rules, the standings follow, the table is told, bad input changes nothing."""

from __future__ import annotations

import json
import random

from events import keys
from service import league_commands
from tests.api.helpers import bearer, new_players, play_to_end
from tests.leagues.helpers import league_version, played_league


def _notes(deps, player, kind):
    out = []
    for _, fields in deps.redis.xrange(keys.player_feed(player["id"])):
        note = json.loads(fields[b"n"])
        if note["type"] == kind:
            out.append(note)
    return out


def test_a_seated_player_opens_a_dispute_and_the_table_and_organizer_are_told(client, app):
    deps, op, players, lid, gid = played_league(client, app)
    url = f"/v1/leagues/{lid}/disputes"
    (stranger,) = new_players(client, 1, "x")
    before = league_version(client, lid)
    body = {"game": gid, "seq": 5, "reason": "the server was slow\nwhen I bid"}
    res = client.post(url, json=body, headers=bearer(stranger))
    assert res.status_code == 403 and res.get_json()["code"] == "not_seated"
    for bad, field in [
        ({"game": gid}, "reason"),
        ({"game": gid, "reason": "  "}, "reason"),
        ({"game": gid, "reason": "x", "seq": 0}, "seq"),
        ({"game": gid, "reason": "x", "seq": 100000}, "seq"),
        ({"game": "g_other", "reason": "x"}, "game"),
        ({"game": gid, "reason": "x", "extra": 1}, "extra"),
    ]:
        res = client.post(url, json=bad, headers=bearer(players[0]))
        problem = res.get_json()
        assert res.status_code == 422 and field in problem["errors"], (bad, problem)
    assert client.post(url, json=body).status_code == 401
    assert league_version(client, lid) == before  # nothing half-written

    res = client.post(url, json=body, headers=bearer(players[0]))
    assert res.status_code == 201, res.get_json()
    opened = res.get_json()
    assert opened["dispute"] == 1 and opened["status"] == "open" and opened["ruling"] is None
    assert (opened["game"], opened["seq"], opened["player"]) == (gid, 5, players[0]["id"])
    assert opened["reason"] == body["reason"] and opened["round"] == 1
    for who in [*players, op]:
        note = _notes(deps, who, "dispute_opened")[0]
        assert note["game"] == gid and note["dispute"] == 1 and note["by"] == players[0]["id"]
    again = client.post(url, json=body, headers=bearer(players[0]))  # a second click
    assert again.status_code == 409 and again.get_json()["code"] == "already_disputed"
    other = client.post(url, json={**body, "seq": 6}, headers=bearer(players[0]))
    assert other.status_code == 201 and other.get_json()["dispute"] == 2  # another event
    listed = client.get(f"/v1/leagues/{lid}/disputes").get_json()
    assert [d["dispute"] for d in listed["disputes"]] == [1, 2] and listed["rulings"] == []
    log = client.get(f"/v1/leagues/{lid}/events").get_json()["events"]
    assert log[-1]["type"] == "league.DisputeOpened"


def test_the_organizer_rules_and_the_standings_and_the_league_page_follow(client, app):
    deps, op, players, lid, gid = played_league(client, app)
    client.post(
        f"/v1/leagues/{lid}/disputes",
        json={"game": gid, "reason": "a default beat me"},
        headers=bearer(players[1]),
    )
    url = f"/v1/leagues/{lid}/rulings"
    before = league_version(client, lid)
    standing = client.get(f"/v1/leagues/{lid}/standings").get_json()["standings"]
    first = standing[0]["player"]
    ruling = {
        "game": gid,
        "kind": "forfeit",
        "players": [first],
        "reason": "collusion",
        "dispute": 1,
    }
    res = client.post(url, json=ruling, headers=bearer(players[0]))
    assert res.status_code == 403 and res.get_json()["code"] == "not_league_organizer"
    assert "organizers" in res.get_json()["detail"]
    for bad, status, code, field in [
        ({**ruling, "kind": "maybe"}, 422, "invalid_body", "kind"),
        ({**ruling, "reason": ""}, 422, "invalid_body", "reason"),
        ({**ruling, "kind": "adjusted", "players": None}, 422, "invalid_body", "points"),
        (
            {**ruling, "kind": "adjusted", "players": None, "points": {"p_x": 1}},
            422,
            "invalid_body",
            "points",
        ),
        ({**ruling, "players": [p["id"] for p in players]}, 422, "invalid_body", "players"),
        ({**ruling, "players": ["p_nobody"]}, 422, "invalid_body", "players"),
        ({**ruling, "kind": "annulled"}, 422, "invalid_body", "players"),
        (
            {**ruling, "points": {first: -1}, "kind": "adjusted", "players": None},
            422,
            "invalid_body",
            "points",
        ),
        ({**ruling, "game": "g_elsewhere"}, 422, "invalid_body", "game"),
        ({**ruling, "dispute": 9}, 404, "dispute_not_found", None),
    ]:
        res = client.post(url, json=bad, headers=bearer(op))
        problem = res.get_json()
        assert (res.status_code, problem["code"]) == (status, code), (bad, problem)
        assert field is None or any(k.startswith(field) for k in problem["errors"]), problem
    assert league_version(client, lid) == before  # nothing half-written

    res = client.post(url, json=ruling, headers=bearer(op))
    assert res.status_code == 201, res.get_json()
    got = res.get_json()
    assert got["ruling"]["kind"] == "forfeit" and got["ruling"]["by"] == op["id"]
    assert got["ruling"]["reason"] == "collusion" and got["ruling"]["players"] == [first]
    rows = {r["player"]: r for r in got["standings"]}
    assert rows[first]["points"] == 0 and rows[first]["wins"] == 0
    assert client.get(f"/v1/leagues/{lid}/standings").get_json()["standings"] == got["standings"]
    league = client.get(f"/v1/leagues/{lid}").get_json()
    assert league["disputes"][0]["status"] == "ruled"
    assert league["disputes"][0]["ruling"]["ruling"] == 1
    assert [r["kind"] for r in league["rulings"]] == ["forfeit"]
    table = client.get(f"/v1/leagues/{lid}/rounds/1").get_json()["tables"][0]
    assert table["ruling"]["kind"] == "forfeit"
    log = client.get(f"/v1/leagues/{lid}/events").get_json()["events"]
    assert log[-1]["type"] == "league.DisputeRuled" and log[-1]["data"]["by"] == op["id"]
    for p in players:
        (note,) = _notes(deps, p, "dispute_ruled")
        assert note["ruling_kind"] == "forfeit" and note["dispute"] == 1 and note["game"] == gid

    # a revised ruling replaces it: the result stands again
    res = client.post(
        url, json={"game": gid, "kind": "stands", "reason": "on appeal"}, headers=bearer(op)
    )
    rows = {r["player"]: r for r in res.get_json()["standings"]}
    # the points and wins before the forfeit (3 and 1, or shared with a player tied first)
    assert (rows[first]["points"], rows[first]["wins"]) == (
        standing[0]["points"],
        standing[0]["wins"],
    )


def test_the_organizers_review_has_the_replay_the_audit_the_refusals_and_the_outages(client, app):
    deps, op, players, lid, gid = played_league(client, app)
    res = client.post(f"/v1/games/{gid}/actions", json={"type": "pass"}, headers=bearer(players[0]))
    assert res.status_code == 409  # the game is over: refused, and kept
    url = f"/v1/leagues/{lid}/games/{gid}/review"
    got = client.get(url, headers=bearer(op)).get_json()
    assert got["replay_url"] == f"/games/{gid}/replay" and got["status"] == "finished"
    assert got["audit"]["ok"] and {c["name"] for c in got["audit"]["checks"]} >= {
        "hash chain",
        "every command decided again",
    }
    assert got["refused"][-1]["code"] == "game_over"
    assert got["refused"][-1]["action"] == {"type": "pass"}  # shown in full after the end
    assert isinstance(got["outages"], list)
    assert got["recorded"]["game"] == gid and sum(got["counted"].values()) == 3 + 2 + 1
    assert got["disputes"] == [] and got["rulings"] == []
    assert client.get(url, headers=bearer(players[2])).status_code == 200
    (stranger,) = new_players(client, 1, "x")
    res = client.get(url, headers=bearer(stranger))
    assert res.status_code == 403 and res.get_json()["code"] == "not_seated"
    res = client.get(f"/v1/leagues/{lid}/games/g_nope/review", headers=bearer(op))
    assert res.status_code == 404 and res.get_json()["code"] == "game_not_found"


def test_a_replay_ruling_opens_a_rematch_of_the_table_that_counts_in_its_place(client, app):
    from events import audit

    deps, op, players, lid, gid = played_league(client, app)
    assert client.get(f"/v1/leagues/{lid}").get_json()["status"] == "finished"
    res = client.post(
        f"/v1/leagues/{lid}/rulings",
        json={"game": gid, "kind": "replay", "reason": "the server lost a bid"},
        headers=bearer(op),
    )
    assert res.status_code == 201, res.get_json()
    again = res.get_json()["ruling"]["replay"]
    assert again == f"{gid}_p1"
    assert all(r["games"] == 0 for r in res.get_json()["standings"])  # the first one is void
    game = client.get(f"/v1/games/{again}").get_json()
    assert game["status"] == "active" and deps.store.load(again).record.league["replay"] == 1
    first = client.get(f"/v1/games/{gid}").get_json()
    assert [s["player"] for s in game["seats"]] == [s["player"] for s in first["seats"]]
    assert client.get(f"/v1/leagues/{lid}").get_json()["status"] == "running"
    # the organizer holds no seat but reads the running replay's evidence
    seen = client.get(f"/v1/games/{again}/evidence", headers=bearer(op))
    assert seen.status_code == 200 and seen.get_json()["status"] == "active"
    table = client.get(f"/v1/leagues/{lid}/rounds/1").get_json()["tables"][0]
    assert table["replays"] == [again] and table["ruling"]["kind"] == "replay"
    # the first game cannot be ruled on again; its replay can, once recorded
    res = client.post(
        f"/v1/leagues/{lid}/rulings",
        json={"game": gid, "kind": "stands", "reason": "x"},
        headers=bearer(op),
    )
    assert res.status_code == 409 and res.get_json()["code"] == "game_replayed"
    res = client.post(
        f"/v1/leagues/{lid}/rulings",
        json={"game": again, "kind": "stands", "reason": "x"},
        headers=bearer(op),
    )
    assert res.status_code == 409 and res.get_json()["code"] == "game_not_recorded"

    seats = {s["seat"]: next(p for p in players if p["id"] == s["player"]) for s in game["seats"]}
    play_to_end(client, app, again, seats, random.Random(9))
    assert league_commands.record_result(deps, lid, again) in ("recorded", "noop")
    league = client.get(f"/v1/leagues/{lid}").get_json()
    assert league["status"] == "finished"
    rows = client.get(f"/v1/leagues/{lid}/standings").get_json()["standings"]
    assert sorted(r["games"] for r in rows) == [1, 1, 1]
    assert sum(r["points"] for r in rows) == 3 + 2 + 1
    assert audit.verify(client.get(f"/v1/games/{again}/export").get_json()).ok
    export = client.get(f"/v1/leagues/{lid}/export").get_json()
    assert export["games"] == [gid, again]


def test_the_league_page_lists_the_rulings_with_their_reasons_escaped(client, app):
    deps, op, players, lid, gid = played_league(client, app)
    reason = "<script>alert(1)</script> played for a friend"
    res = client.post(
        f"/v1/leagues/{lid}/rulings",
        json={"game": gid, "kind": "forfeit", "players": [players[0]["id"]], "reason": reason},
        headers=bearer(op),
    )
    assert res.status_code == 201
    page = client.get(f"/leagues/{lid}").get_data(as_text=True)
    assert "<h2>Rulings</h2>" in page and f"forfeit: {players[0]['name']}" in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; played for a friend" in page
    assert "<script>" not in page

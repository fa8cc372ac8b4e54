"""PATCH /v1/leagues/{id}: an organizer changes any setting that has not taken effect yet;
one that has is a 409 naming it, and then nothing changes."""

from __future__ import annotations

import random
import time
from datetime import datetime

from service import league_commands, league_queries
from tests.api.helpers import bearer, new_players, play_to_end
from tests.leagues.helpers import in_seconds, new_league, operator, running_league


def when(iso: str) -> float:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def test_an_organizer_changes_settings_before_the_start_and_the_schedule_follows(client, app):
    op = operator(client, app)
    ana = new_players(client, 1)[0]
    lid = new_league(client, op, rounds=3, cadence_s=3600)
    url = f"/v1/leagues/{lid}"
    later = in_seconds(7200)
    body = {
        "name": "Autumn",
        "start_at": later,
        "cadence_s": 86400,
        "points": [5, 3, 1],
        "forfeit_points": None,
        "absence_days": 3,
        "table_size": 3,
    }
    res = client.patch(url, json=body, headers=bearer(op))
    assert res.status_code == 200, res.get_json()
    league = res.get_json()
    assert league["name"] == "Autumn" and league["points"] == [5, 3, 1]
    assert league["forfeit_points"] is None and league["absence_days"] == 3
    assert league["table_size"] == {"min": 3, "max": 3}
    starts = [when(r["start_at"]) for r in league["schedule"]]
    assert abs(starts[0] - when(later)) < 0.01
    assert [round(b - a) for a, b in zip(starts, starts[1:])] == [86400, 86400]
    changed = [
        e
        for e in client.get(f"{url}/events").get_json()["events"]
        if e["type"] == "league.SettingsChanged"
    ]
    assert (
        changed[0]["data"]["by"] == op["id"] and changed[0]["data"]["changes"]["name"] == "Autumn"
    )

    refused = client.patch(url, json={"name": "Mine"}, headers=bearer(ana))
    assert refused.status_code == 403 and refused.get_json()["code"] == "not_league_organizer"
    version = client.get(url).get_json()["version"]
    for bad, code, field in [
        ({}, "invalid_body", "_body"),
        ({"rounds": 0}, "invalid_body", "rounds"),
        ({"name": "ok", "bogus": 1}, "invalid_body", "bogus"),
        ({"table_size": 9}, "invalid_players", "table_size"),
        ({"start_at": in_seconds(-60)}, "invalid_body", "start_at"),
        ({"late_join_until_round": 5}, "invalid_body", "late_join_until_round"),
        ({"options": {"edition": "fr"}}, "invalid_option", None),
    ]:
        res = client.patch(url, json=bad, headers=bearer(op))
        assert res.status_code == 422 and res.mimetype == "application/problem+json", bad
        assert res.get_json()["code"] == code, (bad, res.get_json())
        if field:
            assert field in res.get_json()["errors"], (bad, res.get_json())
    assert client.get(url).get_json()["version"] == version  # nothing half-applied
    assert (
        client.patch("/v1/leagues/l_nope", json={"name": "x"}, headers=bearer(op)).status_code
        == 404
    )


def test_settings_in_effect_are_refused_whole_and_later_rounds_can_still_move(client, app):
    lid, op, players = running_league(client, app, 3, rounds=3, cadence_s=3600)
    url = f"/v1/leagues/{lid}"
    before = client.get(url).get_json()
    for bad, field in [
        ({"name": "New name", "table_size": 4}, "table_size"),
        ({"start_at": in_seconds(60)}, "start_at"),
        ({"bye_points": 1}, "bye_points"),
        ({"rounds": 0}, None),  # 422 first: never fewer than 1
    ]:
        res = client.patch(url, json=bad, headers=bearer(op))
        if field is None:
            assert res.status_code == 422
            continue
        assert res.status_code == 409 and res.get_json()["code"] == "setting_in_effect", bad
        assert field in res.get_json()["errors"] and "round 1" in res.get_json()["detail"]
    assert client.get(url).get_json() == before  # the name did not change either

    res = client.patch(
        url, json={"cadence_s": 60, "rounds": 4, "name": "New name"}, headers=bearer(op)
    )
    assert res.status_code == 200, res.get_json()
    league = res.get_json()
    first, second = (when(r["start_at"]) for r in league["schedule"][:2])
    assert league["rounds"] == 4 and len(league["schedule"]) == 4
    assert abs((second - first) - 60) < 0.01 or abs(second - time.time()) < 5
    deps = app.extensions["marketfold"]
    score = deps.redis.zscore("mf:deadlines", f"round|{lid}|2")
    assert score is not None and abs(score - second) < 0.01  # the worker's job moved too

    gid = league_queries.load(deps, lid).rounds[1].tables[0].game
    seats = {
        client.get(f"/v1/games/{gid}", headers=bearer(p)).get_json()["you"]: p for p in players
    }
    play_to_end(client, app, gid, seats, random.Random(2))
    league_commands.record_result(deps, lid, gid)
    res = client.patch(url, json={"points": [9, 1]}, headers=bearer(op))
    assert res.status_code == 409 and "points" in res.get_json()["errors"]
    res = client.patch(url, json={"rounds": 0 + 1}, headers=bearer(op))
    assert res.status_code == 200  # round 1 is the only one started

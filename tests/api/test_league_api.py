"""League routes, the turns and feed of a player, and exactly-once result recording."""

from __future__ import annotations

import json
import random
import time

from events import keys
from service import deadline_commands, league_commands, league_queries, league_rounds
from tests.api.helpers import bearer, new_game, new_players, play_to_end
from tests.leagues.helpers import (
    assert_recount,
    in_seconds,
    new_league,
    operator,
    started_league,
)
from tests.support.waiting import wait_for
from workers import scheduler


def test_only_an_operator_creates_a_league_or_adds_members(client, app):
    op = operator(client, app)
    ana, bo = new_players(client, 2)
    body = {
        "ruleset": "goblin-market",
        "table_size": 3,
        "rounds": 1,
        "start_at": in_seconds(60),
        "cadence_s": 60,
        "decision_timeout_s": 60,
    }
    assert client.post("/v1/leagues", json=body).status_code == 401
    res = client.post("/v1/leagues", json=body, headers=bearer(ana))
    assert res.status_code == 403 and res.get_json()["code"] == "not_organizer"
    lid = new_league(client, op)
    res = client.post(f"/v1/leagues/{lid}/members", json={"player": bo["id"]}, headers=bearer(ana))
    assert res.status_code == 403
    res = client.post(f"/v1/leagues/{lid}/members", json={"player": "p_nobody"}, headers=bearer(op))
    assert res.status_code == 404 and res.get_json()["code"] == "player_not_found"
    assert client.post(f"/v1/leagues/{lid}/join", headers=bearer(ana)).status_code == 200
    res = client.post(f"/v1/leagues/{lid}/join", headers=bearer(ana))
    assert res.status_code == 409 and res.get_json()["code"] == "already_member"
    league = client.get(f"/v1/leagues/{lid}").get_json()
    assert [m["player"] for m in league["members"]] == [ana["id"]]
    assert league["status"] == "scheduled" and len(league["schedule"]) == 2


def test_league_settings_are_checked_against_the_ruleset(client, app):
    op = operator(client, app)
    for bad, code in [
        ({"ruleset": "chess"}, "unknown_ruleset"),
        ({"ruleset": "sorcerous-futures", "table_size": {"min": 3, "max": 5}}, "invalid_players"),
        ({"table_size": {"min": 4, "max": 3}}, "invalid_body"),
        ({"start_at": in_seconds(-5)}, "invalid_body"),
        ({"options": {"edition": "fr"}}, "invalid_option"),
    ]:
        from tests.leagues.helpers import league_body

        res = client.post("/v1/leagues", json=league_body(**bad), headers=bearer(op))
        assert res.status_code == 422 and res.get_json()["code"] == code, (bad, res.get_json())
    assert client.get("/v1/leagues/l_nope").status_code == 404


def test_joins_after_the_start_are_refused(client, app):
    op = operator(client, app)
    early, late, later = new_players(client, 3)
    lid = new_league(client, op, start_at=in_seconds(0.5))
    assert client.post(f"/v1/leagues/{lid}/join", headers=bearer(early)).status_code == 200
    time.sleep(0.6)  # the start time passed; no worker has started the round yet
    res = client.post(f"/v1/leagues/{lid}/join", headers=bearer(late))
    assert res.status_code == 409 and res.get_json()["code"] == "league_started"
    league_rounds.start_round(app.extensions["marketfold"], lid, 1)
    res = client.post(
        f"/v1/leagues/{lid}/members", json={"player": later["id"]}, headers=bearer(op)
    )
    assert res.status_code == 409 and res.get_json()["code"] == "league_started"


def test_a_round_opens_one_game_per_table_once_with_league_facts_and_deadlines(client, app):
    lid, players = started_league(client, app, 7, decision_timeout_s=45)
    deps = app.extensions["marketfold"]
    assert league_rounds.start_round(deps, lid, 1) == "resumed"  # a second run changes nothing
    rnd = client.get(f"/v1/leagues/{lid}/rounds/1").get_json()
    assert rnd["status"] == "started" and [len(t["players"]) for t in rnd["tables"]] == [4, 3]
    for t in rnd["tables"]:
        game = client.get(f"/v1/games/{t['game']}").get_json()
        assert game["status"] == "active" and game["decision_timeout_s"] == 45
        assert [s["player"] for s in game["seats"]] == [p["player"] for p in t["players"]]
        created = client.get(f"/v1/games/{t['game']}/events").get_json()["events"][0]
        assert created["data"]["league"] == {"id": lid, "round": 1, "table": t["table"]}
        assert game["owed"][0]["deadline"] is not None
    assert len(deps.redis.zrange(keys.games(), 0, -1)) == 2
    later = client.get(f"/v1/leagues/{lid}/rounds/2").get_json()
    assert later["status"] == "scheduled" and all(t["game"] is None for t in later["tables"])
    assert client.get(f"/v1/leagues/{lid}/rounds/3").get_json()["code"] == "round_not_found"
    members = {m: 1 for m in deps.redis.zrange(keys.deadlines(), 0, -1)}
    assert f"round|{lid}|2".encode() in members  # the next round is scheduled


def test_turns_lists_every_game_where_the_caller_owes_soonest_deadline_first(client, app):
    lid, players = started_league(client, app, 3, decision_timeout_s=300)
    deps = app.extensions["marketfold"]
    league_game = league_queries.load(deps, lid).rounds[1].tables[0].game
    other = new_game(client, players, decision_timeout_s=100)  # not a league game
    owing = {}
    for gid in (league_game, other):
        game = client.get(f"/v1/games/{gid}").get_json()
        owing[gid] = next(
            s["player"] for s in game["seats"] if s["seat"] == game["owed"][0]["seat"]
        )
    everyone = {gid: [] for gid in owing}
    for p in players:
        turns = client.get("/v1/players/me/turns", headers=bearer(p)).get_json()["turns"]
        for t in turns:
            everyone[t["game"]].append(p["id"])
        deadlines = [t["deadline"] for t in turns]
        assert deadlines == sorted(deadlines)
    assert everyone == {gid: [owing[gid]] for gid in owing}
    both = [p for p in players if owing[league_game] == p["id"] == owing[other]]
    if both:
        turns = client.get("/v1/players/me/turns", headers=bearer(both[0])).get_json()["turns"]
        assert [t["game"] for t in turns] == [other, league_game]
    assert client.get("/v1/players/me/turns").status_code == 401


def read_feed(client, player, after="0", until=lambda notes: True, limit=5.0) -> list[dict]:
    res = client.get(
        "/v1/players/me/feed", headers={**bearer(player), "Last-Event-ID": after}, buffered=False
    )
    assert res.status_code == 200 and res.mimetype == "text/event-stream"
    notes, ends = [], time.monotonic() + limit
    for chunk in res.response:
        for line in chunk.decode().splitlines():
            if line.startswith("data: "):
                notes.append(json.loads(line[6:]))
        assert notes[0]["type"] == "turns"  # a feed starts with the caller's open turns
        if until(notes[1:]) or time.monotonic() > ends:
            break
    res.close()
    return notes[1:]


def test_the_feed_says_game_started_your_turn_and_game_finished(client, app):
    players = new_players(client, 3)
    gid = new_game(client, players, decision_timeout_s=60)
    seats = {
        client.get(f"/v1/games/{gid}", headers=bearer(p)).get_json()["you"]: p for p in players
    }
    first = client.get(f"/v1/games/{gid}").get_json()["owed"][0]["seat"]
    notes = read_feed(client, seats[first], until=lambda n: len(n) >= 2)
    assert [n["type"] for n in notes[:2]] == ["game_started", "your_turn"]
    assert notes[1]["game"] == gid and notes[1]["deadline"] is not None
    play_to_end(client, app, gid, seats, random.Random(3))
    for seat, p in seats.items():
        notes = read_feed(client, p, until=lambda n: n and n[-1]["type"] == "game_finished")
        assert notes[-1]["type"] == "game_finished" and notes[-1]["place"] >= 1
        assert client.get("/v1/players/me/turns", headers=bearer(p)).get_json()["turns"] == []
    bad = client.get("/v1/players/me/feed", headers={**bearer(players[0]), "Last-Event-ID": "x"})
    assert bad.status_code == 422


def test_a_finished_league_game_is_recorded_once_however_often_its_job_runs(
    client, app, worker_process
):
    lid, players = started_league(client, app, 3)
    deps = app.extensions["marketfold"]
    gid = league_queries.load(deps, lid).rounds[1].tables[0].game
    seats = {
        client.get(f"/v1/games/{gid}", headers=bearer(p)).get_json()["you"]: p for p in players
    }
    play_to_end(client, app, gid, seats, random.Random(5))  # schedules league_result at the end
    for _ in range(3):
        deps.scheduler.queue.enqueue(scheduler.JOBS["league_result"], lid, gid)  # duplicated jobs
    deps.scheduler.league_result(lid, gid)
    assert league_commands.record_result(deps, lid, gid) in ("recorded", "noop")
    worker_process()
    worker_process()
    member = f"league_result|{lid}|{gid}"
    wait_for(lambda: deps.redis.zscore(keys.deadlines(), member) is None, 10)
    time.sleep(1.0)
    assert league_commands.record_result(deps, lid, gid) == "noop"
    log = deps.store.read_stream(keys.league_events(lid))
    assert [e["data"]["game"] for e in log if e["type"] == "league.GameRecorded"] == [gid]
    rows = assert_recount(client, deps, lid)
    assert sorted(r["games"] for r in rows) == [1, 1, 1]
    assert client.get(f"/v1/leagues/{lid}/rounds/1").get_json()["tables"][0]["result"]
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    assert client.post("/v1/verify", json=bundle).get_json()["ok"]  # the audit knows league games


def test_a_member_who_keeps_timing_out_is_withdrawn_from_later_rounds(client, app):
    lid, players = started_league(
        client, app, 4, rounds=2, cadence_s=1, decision_timeout_s=1, withdraw_after_timeouts=1
    )
    deps = app.extensions["marketfold"]
    gid = league_queries.load(deps, lid).rounds[1].tables[0].game
    key = deps.store.load(gid).record.owed()[0].key
    seat = deps.store.load(gid).record.owed()[0].seat
    late = deps.store.load(gid).record.seats[seat].player
    time.sleep(1.05)
    assert deadline_commands.expire(deps, gid, key) == "applied"  # withdrawn as it is applied
    league = league_queries.load(deps, lid)
    assert league.withdrawn == {late: 2} and league.why_withdrawn == {late: "absence"}
    assert league_rounds.start_round(deps, lid, 2) == "started"
    league = client.get(f"/v1/leagues/{lid}").get_json()
    assert [m["withdrawn_from_round"] for m in league["members"] if m["player"] == late] == [2]
    second = league["schedule"][1]
    assert second["status"] == "started" and len(second["tables"]) == 1
    assert late not in second["tables"][0]["players"] and len(second["tables"][0]["players"]) == 3


def test_league_answers_match_the_spec(client, app):
    from tests.api.openapi_check import check, expect
    from tests.leagues.helpers import league_body

    def call(method, template, token=None, lid="", n="", **kwargs):
        headers = dict(kwargs.pop("headers", {}))
        if token:
            headers["Authorization"] = f"Bearer {token['token']}"
        url = template.replace("{league_id}", lid).replace("{n}", str(n))
        return check(client.open(url, method=method, headers=headers, **kwargs), method, template)

    op = operator(client, app)
    ana, bo, cy, dee = new_players(client, 4)
    expect(call("POST", "/v1/leagues", ana, json=league_body()), 403, "not_organizer")
    expect(call("POST", "/v1/leagues", op, json={"ruleset": 1}), 422, "invalid_body")
    starts = time.monotonic() + 3  # time for the calls below on a loaded machine
    body = league_body(start_at=in_seconds(3), table_size=3)
    lid = expect(call("POST", "/v1/leagues", op, json=body), 201)["id"]
    one, members = "/v1/leagues/{league_id}", "/v1/leagues/{league_id}/members"
    join = "/v1/leagues/{league_id}/join"
    expect(call("POST", join, ana, lid), 200)
    for p in (bo, cy):
        expect(call("POST", members, op, lid, json={"player": p["id"]}), 201)
    expect(call("POST", members, op, lid, json={"player": "p_x"}), 404, "player_not_found")
    expect(call("POST", members, ana, lid, json={"player": dee["id"]}), 403, "not_league_organizer")
    expect(call("POST", join, bo, lid), 409, "already_member")
    expect(call("GET", one, lid="l_missing"), 404, "league_not_found")
    expect(call("GET", one, lid=lid), 200)
    time.sleep(max(0.0, starts - time.monotonic()) + 0.1)
    expect(call("POST", join, dee, lid), 409, "league_started")
    league_rounds.start_round(app.extensions["marketfold"], lid, 1)
    assert expect(call("GET", one, lid=lid), 200)["status"] == "running"
    expect(call("GET", "/v1/leagues/{league_id}/standings", lid=lid), 200)
    rounds = "/v1/leagues/{league_id}/rounds/{n}"
    expect(call("GET", rounds, lid=lid, n=1), 200)
    expect(call("GET", rounds, lid=lid, n=2), 200)
    expect(call("GET", rounds, lid=lid, n=3), 404, "round_not_found")
    for p in (ana, bo, cy):
        assert expect(call("GET", "/v1/players/me/turns", p), 200)["player"] == p["id"]
    expect(call("GET", "/v1/players/me/turns"), 401, "unauthorized")
    feed = "/v1/players/me/feed"
    expect(call("GET", feed, ana, headers={"Last-Event-ID": "x"}), 422, "invalid_header")

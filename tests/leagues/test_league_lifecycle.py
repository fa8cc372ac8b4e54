"""A league's lifecycle: listing, pause/resume/cancel, withdrawing, late joining, its log,
export and CSV, and the notes members get."""

from __future__ import annotations

import csv
import io
import json
import time

from events import keys
from events.codec import parse_time
from service import league_commands, league_queries, league_rounds
from tests.api.helpers import bearer, new_players
from tests.leagues.helpers import in_seconds, league_body, new_league, operator, started_league


def feed(r, player) -> list[dict]:
    return [json.loads(f[b"n"]) for _, f in r.xrange(keys.player_feed(player["id"]))]


def test_a_league_ending_after_year_9999_is_refused_and_nothing_is_stored(client, app, r):
    op = operator(client, app)
    body = league_body(start_at="9999-12-01T00:00:00Z", rounds=3, cadence_s=30 * 24 * 3600)
    res = client.post("/v1/leagues", json=body, headers=bearer(op))
    assert res.status_code == 422 and "start_at" in res.get_json()["errors"]
    assert res.headers["Content-Type"] == "application/problem+json"
    assert client.get("/v1/leagues").get_json()["leagues"] == []
    assert r.zcard(keys.leagues()) == 0 and not r.keys("mf:{l:*")
    late = client.post("/v1/leagues", json=league_body(late_join_until_round=5), headers=bearer(op))
    assert late.status_code == 422 and "late_join_until_round" in late.get_json()["errors"]


def test_leagues_are_listed_newest_first_filtered_and_paged(client, app):
    op = operator(client, app)
    gm = [new_league(client, op, name=f"gm{i}") for i in range(3)]
    bm = new_league(client, op, ruleset="black-market", name="bm")
    page = client.get("/v1/leagues?limit=2").get_json()
    assert [lg["id"] for lg in page["leagues"]] == [bm, gm[2]]
    rest = client.get(f"/v1/leagues?limit=2&cursor={page['next_cursor']}").get_json()
    assert [lg["id"] for lg in rest["leagues"]] == [gm[1], gm[0]] and rest["next_cursor"] is None
    only = client.get("/v1/leagues?ruleset=black-market").get_json()["leagues"]
    assert [lg["id"] for lg in only] == [bm] and only[0]["status"] == "scheduled"
    assert client.get("/v1/leagues?status=running").get_json()["leagues"] == []
    for query, field in [
        ("status=done", "status"),
        ("ruleset=chess", "ruleset"),
        ("limit=0", "limit"),
        ("limit=101", "limit"),
        ("cursor=l_zz", "cursor"),
    ]:
        res = client.get(f"/v1/leagues?{query}")
        assert res.status_code == 422 and field in res.get_json()["errors"], query


def test_pause_holds_new_rounds_and_resume_reschedules_them_from_now(client, app):
    lid, players = started_league(client, app, n=3, rounds=3, cadence_s=2)
    deps = app.extensions["marketfold"]
    op = {"token": _op_token(client, app)}
    res = client.post(f"/v1/leagues/{lid}/pause", headers=bearer(players[0]))
    assert res.status_code == 403
    paused = client.post(f"/v1/leagues/{lid}/pause", headers=bearer(op)).get_json()
    assert paused["status"] == "paused"
    again = client.post(f"/v1/leagues/{lid}/pause", headers=bearer(op))
    assert again.status_code == 409 and again.get_json()["code"] == "league_paused"
    time.sleep(2)  # round 2 falls due while paused: it does not start
    assert league_rounds.start_round(deps, lid, 2) == "paused"
    assert 2 not in league_queries.load(deps, lid).rounds
    # while paused, rounds to come show no start time (resuming reschedules them)
    held = client.get(f"/v1/leagues/{lid}").get_json()["schedule"]
    assert [(s["status"], s["start_at"]) for s in held[1:]] == [("paused", None)] * 2
    two = client.get(f"/v1/leagues/{lid}/rounds/2").get_json()
    assert (two["status"], two["start_at"]) == ("paused", None)
    assert {t["status"] for t in two["tables"]} == {"paused"}
    before = in_seconds(0)
    resumed = client.post(f"/v1/leagues/{lid}/resume", headers=bearer(op)).get_json()
    assert resumed["status"] == "running"
    two = next(s for s in resumed["schedule"] if s["round"] == 2)
    three = next(s for s in resumed["schedule"] if s["round"] == 3)
    assert before[:19] <= two["start_at"][:19] < in_seconds(1)[:19]  # from now
    gap = parse_time(three["start_at"]) - parse_time(two["start_at"])
    assert gap.total_seconds() == 2  # then at the league's cadence
    assert league_rounds.start_round(deps, lid, 2) == "started"  # due at once
    res = client.post(f"/v1/leagues/{lid}/resume", headers=bearer(op))
    assert res.status_code == 409 and res.get_json()["code"] == "league_not_paused"


def test_resuming_before_the_next_round_is_due_keeps_its_time(client, app):
    lid, _ = started_league(client, app, n=3, rounds=2, cadence_s=3600)
    op = {"token": _op_token(client, app)}
    planned = client.get(f"/v1/leagues/{lid}").get_json()["schedule"][1]["start_at"]
    client.post(f"/v1/leagues/{lid}/pause", headers=bearer(op))
    resumed = client.post(f"/v1/leagues/{lid}/resume", headers=bearer(op)).get_json()
    assert resumed["schedule"][1]["start_at"] == planned


def _op_token(client, app) -> str:
    op = new_players(client, 1, "op2")[0]
    app.config["OPERATORS"] = [*app.config["OPERATORS"], op["id"]]
    return op["token"]


def test_cancel_aborts_running_games_records_them_without_points_and_ends_it(client, app, r):
    lid, players = started_league(client, app, n=3, rounds=2)
    deps = app.extensions["marketfold"]
    op = {"token": _op_token(client, app)}
    gid = client.get(f"/v1/leagues/{lid}/rounds/1").get_json()["tables"][0]["game"]
    done = client.post(f"/v1/leagues/{lid}/cancel", headers=bearer(op))
    assert done.status_code == 200 and done.get_json()["status"] == "cancelled"
    game = client.get(f"/v1/games/{gid}").get_json()
    assert game["status"] == "finished" and game["result"]["reason"] == "aborted"
    assert league_commands.record_result(deps, lid, gid) == "recorded"
    rows = client.get(f"/v1/leagues/{lid}/standings").get_json()["standings"]
    assert all(row["points"] == 0 and row["games"] == 0 for row in rows)
    # the aborted game says so and shows no places; the round to come will never start
    one = client.get(f"/v1/leagues/{lid}/rounds/1").get_json()["tables"][0]
    assert (one["status"], one["result"]) == ("aborted", None)
    two = client.get(f"/v1/leagues/{lid}/rounds/2").get_json()
    assert (two["status"], two["start_at"]) == ("cancelled", None)
    schedule = client.get(f"/v1/leagues/{lid}").get_json()["schedule"]
    assert [(s["status"], s["start_at"]) for s in schedule[1:]] == [("cancelled", None)]
    page = client.get(f"/leagues/{lid}").get_data(as_text=True)
    assert "Round 2 (cancelled: it will not be played)" in page and "aborted</td>" in page
    assert "(place " not in page
    assert league_rounds.start_round(deps, lid, 2) == "noop"
    res = client.post(f"/v1/leagues/{lid}/cancel", headers=bearer(op))
    assert res.status_code == 409 and res.get_json()["code"] == "league_over"
    notes = [n for n in feed(r, players[0]) if n["type"] == "league_finished"]
    assert notes and notes[-1]["status"] == "cancelled"


def test_a_member_leaves_or_is_removed_and_resigns_from_their_running_game(client, app, r):
    lid, players = started_league(client, app, n=4, rounds=2, table_size={"min": 3, "max": 4})
    op = {"token": _op_token(client, app)}
    gid = client.get(f"/v1/leagues/{lid}/rounds/1").get_json()["tables"][0]["game"]
    left = client.post(f"/v1/leagues/{lid}/leave", headers=bearer(players[0]))
    assert left.status_code == 200 and left.get_json()["withdrawn_from_round"] == 2
    events = client.get(f"/v1/games/{gid}/events").get_json()["events"]
    assert [e["data"] for e in events if e["type"] == "game.SeatResigned"]
    again = client.post(f"/v1/leagues/{lid}/leave", headers=bearer(players[0]))
    assert again.status_code == 409 and again.get_json()["code"] == "already_withdrawn"
    url = f"/v1/leagues/{lid}/members/{players[1]['id']}"
    assert client.delete(url, headers=bearer(players[2])).status_code == 403
    assert client.delete(url, headers=bearer(op)).status_code == 200
    res = client.delete(f"/v1/leagues/{lid}/members/p_nobody", headers=bearer(op))
    assert res.status_code == 404 and res.get_json()["code"] == "member_not_found"
    league = client.get(f"/v1/leagues/{lid}").get_json()
    gone = {m["player"] for m in league["members"] if m["withdrawn_from_round"]}
    assert gone == {players[0]["id"], players[1]["id"]}
    listed = client.get("/v1/leagues").get_json()["leagues"]
    assert next(x["members"] for x in listed if x["id"] == lid) == 2  # withdrawn not counted
    assert all(
        not {players[0]["id"], players[1]["id"]} & set(t["players"])
        for s in league["schedule"]
        if s["round"] == 2
        for t in s["tables"]
    )
    assert [n["by"] for n in feed(r, players[1]) if n["type"] == "removed"] == ["organizer"]


def test_late_joining_is_open_until_its_round_starts(client, app):
    op = operator(client, app)
    early = new_players(client, 3, "e")
    late, later = new_players(client, 2, "l")
    lid = new_league(
        client, op, early, start_at=in_seconds(0.3), rounds=3, cadence_s=1, late_join_until_round=2
    )
    time.sleep(0.35)
    deps = app.extensions["marketfold"]
    league_rounds.start_round(deps, lid, 1)
    assert client.post(f"/v1/leagues/{lid}/join", headers=bearer(late)).status_code == 200
    time.sleep(1)
    assert league_rounds.start_round(deps, lid, 2) == "started"
    two = client.get(f"/v1/leagues/{lid}/rounds/2").get_json()
    seated = {p["player"] for t in two["tables"] for p in t["players"]} | set(two["byes"])
    assert late["id"] in seated
    res = client.post(f"/v1/leagues/{lid}/join", headers=bearer(later))
    assert res.status_code == 409 and res.get_json()["code"] == "league_started"


def test_the_league_log_its_export_and_its_standings_csv(client, app):
    lid, players = started_league(client, app, n=3)
    log = client.get(f"/v1/leagues/{lid}/events").get_json()
    kinds = [e["type"] for e in log["events"]]
    assert kinds[0] == "league.Created" and "league.RoundStarted" in kinds
    assert log["version"] == len(kinds)
    tail = client.get(f"/v1/leagues/{lid}/events?after={len(kinds) - 1}").get_json()["events"]
    assert [e["seq"] for e in tail] == [len(kinds)]
    assert client.get(f"/v1/leagues/{lid}/events?after=x").status_code == 422
    export = client.get(f"/v1/leagues/{lid}/export")
    assert "attachment" in export.headers["Content-Disposition"]
    bundle = export.get_json()
    assert bundle["format"] == "marketfold-league/1" and bundle["events"] == log["events"]
    assert len(bundle["games"]) == 1
    res = client.get(f"/v1/leagues/{lid}/standings.csv")
    assert res.headers["Content-Type"].startswith("text/csv")
    table = list(csv.DictReader(io.StringIO(res.get_data(as_text=True))))
    assert sorted(row["player"] for row in table) == sorted(p["id"] for p in players)
    assert {row["rank"] for row in table} == {"1"} and table[0]["points"] == "0"
    assert client.get("/v1/leagues/l_nope/standings.csv").status_code == 404
    assert client.get("/v1/leagues/l_nope/events").status_code == 404


def test_members_are_told_when_a_round_starts_with_their_game(client, app, r):
    lid, players = started_league(client, app, n=3)
    gid = client.get(f"/v1/leagues/{lid}/rounds/1").get_json()["tables"][0]["game"]
    notes = [n for n in feed(r, players[1]) if n["type"] == "round_started"]
    assert [(n["league"]["id"], n["league"]["round"], n["game"]) for n in notes] == [(lid, 1, gid)]
    assert notes[0]["ruleset"] == "goblin-market" and notes[0]["league"]["table"] == 1


def test_lifecycle_answers_match_the_spec_and_bad_input_writes_nothing(client, app):
    from tests.api.openapi_check import check, expect

    def call(method, template, token=None, lid="", player="", **kwargs):
        headers = {"Authorization": f"Bearer {token['token']}"} if token else {}
        url = template.replace("{league_id}", lid).replace("{player_id}", player)
        return check(client.open(url, method=method, headers=headers, **kwargs), method, template)

    lid, players = started_league(client, app, n=3, rounds=2)
    op = {"token": _op_token(client, app)}
    one = "/v1/leagues/{league_id}"
    version = client.get(f"/v1/leagues/{lid}").get_json()["version"]
    expect(call("GET", "/v1/leagues", query_string={"limit": "x"}), 422, "invalid_query")
    assert expect(call("GET", "/v1/leagues"), 200)["leagues"][0]["id"] == lid
    for action in ("pause", "resume", "cancel"):
        expect(call("POST", one + "/" + action, None, lid), 401, "unauthorized")
        expect(call("POST", one + "/" + action, players[0], lid), 403, "not_league_organizer")
        expect(call("POST", one + "/" + action, op, "l_missing"), 404, "league_not_found")
    expect(call("POST", one + "/resume", op, lid), 409, "league_not_paused")
    member = one + "/members/{player_id}"
    expect(call("DELETE", member, op, lid, "p_nobody"), 404, "member_not_found")
    expect(call("DELETE", member, players[1], lid, players[0]["id"]), 403, "not_league_organizer")
    expect(call("POST", one + "/leave", op, lid), 404, "member_not_found")
    expect(
        call("GET", one + "/events", lid=lid, query_string={"after": "-1"}), 422, "invalid_query"
    )
    assert client.get(f"/v1/leagues/{lid}").get_json()["version"] == version  # nothing written
    expect(call("GET", one + "/events", lid=lid), 200)
    expect(call("GET", one + "/export", lid=lid), 200)
    expect(call("GET", one + "/standings.csv", lid=lid), 200)
    expect(call("GET", "/leagues/{league_id}", lid=lid), 200)
    expect(call("GET", "/leagues/{league_id}", lid="l_missing"), 404, "league_not_found")
    expect(call("POST", one + "/pause", op, lid), 200)
    expect(call("POST", one + "/pause", op, lid), 409, "league_paused")
    expect(call("POST", one + "/resume", op, lid), 200)
    expect(call("POST", one + "/leave", players[2], lid), 200)
    expect(call("DELETE", member, op, lid, players[2]["id"]), 409, "already_withdrawn")
    expect(call("POST", one + "/cancel", op, lid), 200)
    expect(call("POST", one + "/cancel", op, lid), 409, "league_over")
    expect(call("POST", one + "/leave", players[0], lid), 409, "league_over")

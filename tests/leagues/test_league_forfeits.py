"""Forfeits (leagues/forfeits.py): who forfeits a game, what a forfeit scores, and how
the players who played are placed among themselves; the standings follow."""

from __future__ import annotations

import random
from fractions import Fraction

from leagues import forfeits, table
from leagues.record import League, fold_all
from service import league_commands, league_queries
from tests.api.helpers import bearer, play_to_end
from tests.leagues.helpers import assert_recount, running_league
from tests.leagues.league_log import game_recorded, league_log, round_started

POINTS = (3, 2, 1, 0)


def test_a_forfeit_scores_the_setting_and_the_others_are_placed_among_themselves():
    scored = forfeits.score({"a": 1, "b": 2, "c": 3, "d": 4}, {"c"}, POINTS, 0)
    assert scored.points == {"a": 3, "b": 2, "c": 0, "d": 1}  # d is third of those who played
    assert scored.places == {"a": 1, "b": 2, "c": None, "d": 3}
    tied = forfeits.score({"a": 1, "b": 1, "c": 3, "d": 4}, {"a"}, POINTS, Fraction(1, 2))
    assert tied.points == {"a": Fraction(1, 2), "b": 3, "c": 2, "d": 1}
    shared = forfeits.score({"a": 1, "b": 2, "c": 2, "d": 4}, {"a"}, POINTS, 0)
    assert shared.points == {"a": 0, "b": Fraction(5, 2), "c": Fraction(5, 2), "d": 1}
    nobody = forfeits.score({"a": 1, "b": 2, "c": 3}, {"a", "b", "c"}, POINTS, 0)
    assert nobody.points == {"a": 0, "b": 0, "c": 0}  # not last place's points
    off = forfeits.score({"a": 1, "b": 2, "c": 3}, {"a"}, POINTS, None)
    assert off.points == {"a": 3, "b": 2, "c": 1}  # forfeits off: the places stand


def test_who_forfeits_never_moved_or_was_removed_or_withdrawn_for_absence():
    seats = {0: "a", 1: "b", 2: "c", 3: "d"}
    why = {"b": "removed", "c": "left", "d": "absence"}
    out = forfeits.forfeiting(seats, acted={0, 1, 2, 3}, resigned={1, 2, 3}, why_withdrawn=why)
    assert out == {"b", "d"}  # c resigned of their own accord: they keep their place
    assert forfeits.forfeiting(seats, acted={0, 2}, resigned=set(), why_withdrawn={}) == {"b", "d"}


def test_the_standings_count_a_forfeit_as_its_points_and_no_win():
    recorded = game_recorded("g1", 1, {"a": 1, "b": 2, "c": 3})
    for row in recorded[1]["places"]:
        row["forfeit"] = row["player"] == "a"
    league = fold_all(
        League("l_t"), league_log(round_started(1, ["a", "b", "c"], ["d"], "g1"), recorded)
    )
    rows = {r["player"]: r for r in table.rows(league)}
    assert (rows["a"]["points"], rows["a"]["wins"]) == (0, 0)
    assert (rows["b"]["points"], rows["b"]["wins"]) == (3, 1)
    assert rows["c"]["points"] == 2


def test_a_seat_that_never_moved_scores_the_forfeit_over_http(client, app):
    lid, _, players = running_league(client, app, 3, rounds=1, table_size=3)
    deps = app.extensions["marketfold"]
    gid = league_queries.load(deps, lid).rounds[1].tables[0].game
    absent = players[2]
    assert client.post(f"/v1/games/{gid}/resign", headers=bearer(absent)).status_code == 200
    seats = {
        client.get(f"/v1/games/{gid}", headers=bearer(p)).get_json()["you"]: p for p in players
    }
    play_to_end(
        client, app, gid, {s: p for s, p in seats.items() if p is not absent}, random.Random(8)
    )
    assert league_commands.record_result(deps, lid, gid) == "recorded"
    rnd = client.get(f"/v1/leagues/{lid}/rounds/1").get_json()
    rows = client.get(f"/v1/leagues/{lid}/standings").get_json()["standings"]
    by = {r["player"]: r for r in rows}
    assert by[absent["id"]]["points"] == 0 and rows[-1]["player"] == absent["id"]
    assert sorted(by[p["id"]]["points"] for p in players[:2]) in ([2, 3], [2.5, 2.5])
    assert [r["forfeit"] for r in rnd["tables"][0]["result"] if r["player"] == absent["id"]] == [
        True
    ]
    page = client.get(f"/leagues/{lid}").get_data(as_text=True)
    assert f"{absent['name']} (forfeit)" in page
    assert_recount(client, deps, lid)  # recounted from the game's own log

"""Standings: bye points and the documented tie-breaks (points, games won, Buchholz,
rating), from a league's fold alone."""

from __future__ import annotations

from leagues import table
from leagues.record import League, fold_all
from tests.leagues.league_log import SETTINGS, game_recorded, league_log, round_started


def _rows(envelopes):
    return {r["player"]: r for r in table.rows(fold_all(League("l_t"), envelopes))}


def test_a_bye_is_worth_the_average_of_the_members_games_by_default():
    log = league_log(
        round_started(1, ["a", "b", "c"], ["d"], "g1"),
        game_recorded("g1", 1, {"a": 1, "b": 2, "c": 3}),
        round_started(2, ["b", "c", "d"], ["a"], "g2"),
        game_recorded("g2", 2, {"d": 1, "b": 2, "c": 3}),
    )
    rows = _rows(log)
    assert rows["a"]["byes"] == 1 and rows["a"]["points"] == 3 + 3  # one game of 3: a bye is 3
    assert rows["d"]["points"] == 3 + 3 and rows["d"]["bye_points"] == 3
    assert rows["b"]["points"] == 4 and rows["b"]["byes"] == 0


def test_a_fixed_bye_value_replaces_the_average():
    log = league_log(
        round_started(1, ["a", "b", "c"], ["d"], "g1"),
        game_recorded("g1", 1, {"a": 1, "b": 2, "c": 3}),
        bye_points=1.5,
    )
    assert _rows(log)["d"]["points"] == 1.5


def test_ties_on_points_go_to_games_won_then_buchholz_then_rating():
    log = league_log(
        round_started(1, ["a", "b", "c"], ["d"], "g1"),
        game_recorded("g1", 1, {"a": 1, "b": 2, "c": 3}),
        round_started(2, ["b", "c", "d"], ["a"], "g2"),
        game_recorded("g2", 2, {"c": 1, "d": 2, "b": 3}),
        bye_points=0,
    )
    rows = _rows(log)
    # a: 3 (one win); b: 2+1 = 3 (no win); c: 1+3 = 4; d: 2
    assert rows["c"]["rank"] == 1
    assert (rows["a"]["points"], rows["b"]["points"]) == (3, 3)
    assert rows["a"]["rank"] == 2 and rows["b"]["rank"] == 3  # a won a game, b did not
    assert (
        rows["b"]["buchholz"] == rows["a"]["points"] + rows["c"]["points"] * 2 + rows["d"]["points"]
    )


def test_members_equal_on_points_wins_buchholz_and_rating_share_a_rank():
    log = league_log(
        round_started(1, ["a", "b", "c"], ["d"], "g1"),
        game_recorded("g1", 1, {"a": 1, "b": 2, "c": 3}),
        round_started(2, ["b", "c", "d"], ["a"], "g2"),
        game_recorded("g2", 2, {"d": 1, "c": 2, "b": 3}),
        bye_points=0,
    )
    rows = _rows(log)
    # a and d: 3 points and one win each; a met b (3) and c (3) = 6, d met b and c = 6 too
    assert (rows["a"]["points"], rows["a"]["wins"]) == (rows["d"]["points"], rows["d"]["wins"])
    assert rows["a"]["buchholz"] == rows["d"]["buchholz"]
    assert rows["a"]["rank"] == rows["d"]["rank"]  # same rating too: they share the rank


def test_an_aborted_game_is_on_record_but_counts_for_nobody():
    log = league_log(
        round_started(1, ["a", "b", "c"], ["d"], "g1"),
        game_recorded("g1", 1, {"a": 1, "b": 2, "c": 3}, reason="aborted"),
    )
    league = fold_all(League("l_t"), log)
    assert "g1" in league.results
    assert all(r["points"] == 0 and r["games"] == 0 for r in table.rows(league))


def test_points_and_buchholz_are_summed_exactly_and_rounded_only_for_display():
    # points [1, 0, 0]: a three-way tie is worth 1/3 each (recorded as 0.3333), and byes are
    # worth each member's average; summed from rounded values, e fell behind c by 0.0001
    from leagues import standings

    tables = [
        (["e", "c", "b"], {"e": 1, "b": 2, "c": 3}),
        (["d", "a", "c"], {"c": 1, "d": 2, "a": 2}),
        (["a", "d", "c"], {"c": 1, "d": 2, "a": 3}),
        (["a", "b", "e"], {"a": 1, "b": 1, "e": 1}),
    ]
    out = [("league.Created", {**SETTINGS, "points": [1, 0, 0], "rounds": 4})]
    out += [("league.MemberJoined", {"player": p, "name": p.upper()}) for p in "abcde"]
    for n, (players, places) in enumerate(tables, start=1):
        byes = [p for p in "abcde" if p not in players]
        out.append(round_started(n, players, byes, f"g{n}"))
        pts = standings.points(places, [1, 0, 0])
        rows = [
            {"player": p, "seat": i, "place": places[p], "score": 0, "points": pts[p]}
            | {"mu": 25.0, "sigma": 8.0}
            for i, p in enumerate(players)
        ]
        data = {"game": f"g{n}", "round": n, "table": 1, "places": rows, "reason": "completed"}
        out.append(("league.GameRecorded", data))
    log = [
        {"seq": i, "hash": str(i), "type": kind, "data": data, "at": "2030-01-01T00:00:00Z"}
        for i, (kind, data) in enumerate(out, start=1)
    ]
    rows = _rows(log)
    # e and c both hold exactly 8/3 points and two wins: Buchholz (exact) puts e first
    assert rows["e"]["points"] == rows["c"]["points"] == 2.6667
    assert (rows["e"]["buchholz"], rows["c"]["buchholz"]) == (4.4444, 4.2222)
    assert (rows["e"]["rank"], rows["c"]["rank"]) == (1, 2)
    assert rows["b"]["points"] == 0.6667  # 1/3 + two byes of 1/6 each, not 0.6666

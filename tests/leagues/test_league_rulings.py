"""Rulings applied to a league's standings (leagues.rulings): each kind, the newest
ruling on a game counting, ratings rated again from the first game a ruling changes."""

from __future__ import annotations

from leagues import rulings, standings, table
from leagues.record import League, fold_all
from tests.leagues.league_log import game_recorded, league_log, round_started


def _season(*more, **settings):
    return league_log(
        round_started(1, ["a", "b", "c"], ["d"], "g1"),
        game_recorded("g1", 1, {"a": 1, "b": 2, "c": 3}),
        round_started(2, ["b", "c", "d"], ["a"], "g2"),
        game_recorded("g2", 2, {"b": 1, "c": 2, "d": 3}),
        *more,
        **settings,
    )


def _ruled(game, kind, dispute=None, **more):
    data = {"ruling": 1, "game": game, "kind": kind, "reason": "r", "by": "op", **more}
    return ("league.DisputeRuled", {**data, "dispute": dispute})


def _fold(envelopes):
    return fold_all(League("l"), envelopes)


def _rows(league):
    return {r["player"]: r for r in table.rows(league)}


def _pts(league, player):
    """A member's points from games (the rows add their byes)."""
    return float(league.points.get(player, 0))


def test_a_ruling_that_the_result_stands_changes_nothing():
    before = _rows(_fold(_season()))
    after = _rows(_fold(_season(_ruled("g1", "stands"))))
    assert before == after


def test_an_annulled_game_counts_for_nobody_and_later_ratings_are_rated_again():
    league = _fold(_season(_ruled("g1", "annulled")))
    rows = _rows(league)
    assert rows["a"]["points"] == 0 and rows["a"]["games"] == 0 and rows["a"]["wins"] == 0
    assert rows["b"]["games"] == 1 and _pts(league, "b") == 3  # g2 only
    # b's rating: g2 rated from the initial ratings, not from after g1 (the log says 25/8)
    fresh = standings.rate({p: standings.initial() for p in "bcd"}, {"b": 1, "c": 2, "d": 3})
    assert (rows["b"]["mu"], rows["b"]["sigma"]) == fresh["b"]
    assert league.opponents.get("a", []) == []


def test_adjusted_points_replace_the_listed_players_points_only():
    league = _fold(_season(_ruled("g1", "adjusted", points={"a": 1.5, "c": 2})))
    rows = _rows(league)
    assert _pts(league, "a") == 1.5  # 3 -> 1.5
    assert rows["a"]["points"] == 1.5 * 2  # and a's bye in round 2 is worth its average
    assert _pts(league, "c") == 2 + 2  # g1 adjusted to 2, g2 2
    assert _pts(league, "b") == 2 + 3  # unchanged
    assert rows["a"]["wins"] == 1 and (rows["a"]["mu"], rows["a"]["sigma"]) == (25.0, 8.0)


def test_a_forfeit_scores_the_leagues_forfeit_and_places_the_others_among_themselves():
    league = _fold(_season(_ruled("g1", "forfeit", players=["a"]), forfeit_points=0.5))
    rows = _rows(league)
    assert _pts(league, "a") == 0.5 and rows["a"]["wins"] == 0
    assert _pts(league, "b") == 3 + 3 and rows["b"]["wins"] == 2  # b first of g1 now
    assert _pts(league, "c") == 2 + 2
    result = rulings.scored(league, league.results["g1"], league.rulings["g1"])
    assert result.places == {"a": None, "b": 1, "c": 2}
    # a forfeit leaves the forfeiting seat's rating alone; the others are rated again
    assert (rows["a"]["mu"], rows["a"]["sigma"]) == standings.initial()
    first = standings.rate({p: standings.initial() for p in "bc"}, {"b": 1, "c": 2})
    then = standings.rate({**first, "d": standings.initial()}, {"b": 1, "c": 2, "d": 3})
    assert league.ratings["c"] == then["c"]  # and g2 rated from there


def test_a_forfeit_keeps_ties_among_the_others_and_scores_zero_by_default():
    log = league_log(
        round_started(1, ["a", "b", "c"], ["d"], "g1"),
        game_recorded("g1", 1, {"a": 1, "b": 2, "c": 2}),
        _ruled("g1", "forfeit", players=["a"]),
    )
    league = _fold(log)
    result = rulings.scored(league, league.results["g1"], league.rulings["g1"])
    assert result.places == {"a": None, "b": 1, "c": 1}
    assert _pts(league, "a") == 0 and _pts(league, "b") == _pts(league, "c") == 2.5


def test_the_newest_ruling_on_a_game_is_the_one_that_counts():
    rows = _rows(_fold(_season(_ruled("g1", "annulled"), _ruled("g1", "stands"))))
    assert rows == _rows(_fold(_season()))


def test_a_replayed_game_counts_for_nobody_and_its_replay_counts_in_its_place():
    replay = ("league.GameRecorded", {**game_recorded("g1p", 1, {"c": 1, "a": 2, "b": 3})[1]})
    league = _fold(_season(_ruled("g1", "replay", replay="g1p")))
    assert league.status != "finished" or "g1p" in league.results
    assert league.table_of("g1p")[1].game == "g1"
    assert _rows(league)["a"]["games"] == 0
    league = _fold(_season(_ruled("g1", "replay", replay="g1p"), replay))
    assert _pts(league, "c") == 3 + 2 and _pts(league, "a") == 2
    assert _rows(league)["a"]["games"] == 1


def test_disputes_are_open_until_a_ruling_answers_them():
    opened = (
        "league.DisputeOpened",
        {"dispute": 1, "game": "g1", "seq": 4, "player": "a", "reason": "the server was slow"},
    )
    league = _fold(_season(opened))
    assert [d["status"] for d in rulings.disputes(league)] == ["open"]
    league = _fold(_season(opened, _ruled("g1", "stands", dispute=1)))
    (d,) = rulings.disputes(league)
    assert d["status"] == "ruled" and d["ruling"]["kind"] == "stands"

"""What a league's answers show of rounds to come, aborted games and members (issue #33
point 6), from its fold alone: no Redis, no clock."""

from __future__ import annotations

from api import league_present
from leagues.record import League, fold_all
from tests.leagues.league_log import game_recorded, league_log, round_started


def _league(*events, **settings) -> League:
    return fold_all(League("l_t"), league_log(*events, **settings))


def test_a_cancelled_leagues_rounds_to_come_show_cancelled_without_a_start_time():
    league = _league(round_started(1, ["a", "b", "c"], ["d"], "g1"), ("league.Cancelled", {}))
    shown = [league_present.round_status(league, n) for n in (1, 2, 3)]
    assert shown == [("started", "2030-01-01T00:00:00.000Z"), ("cancelled", None)] + [
        ("cancelled", None)
    ]


def test_while_paused_rounds_to_come_show_no_start_time_until_resumed():
    started = round_started(1, ["a", "b", "c"], ["d"], "g1")
    paused = _league(started, ("league.Paused", {}))
    assert league_present.round_status(paused, 2) == ("paused", None)
    resumed = _league(
        started,
        ("league.Paused", {}),
        ("league.Resumed", {"round": 2, "from": "2031-01-01T00:00:00Z"}),
    )
    assert league_present.round_status(resumed, 2) == ("scheduled", "2031-01-01T00:00:00.000Z")


def test_an_aborted_game_shows_aborted_without_places():
    league = _league(
        round_started(1, ["a", "b", "c"], ["d"], "g1"),
        game_recorded("g1", 1, {"a": 1, "b": 2, "c": 3}, reason="aborted"),
    )
    [table] = league.rounds[1].tables
    shown = league_present._table(league, table, ("finished", None))
    assert (shown["status"], shown["result"]) == ("aborted", None)


def test_member_counts_leave_out_withdrawn_members():
    league = _league(("league.MemberWithdrawn", {"player": "b", "round": 1}))
    assert league_present.league_summary(league)["members"] == 3
    assert league_present.member(league, "a")["members"] == 3

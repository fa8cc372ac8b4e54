"""Pairing is pure and deterministic, respects table limits, and spreads opponents evenly.

Stated bound (docs/leagues.md), for 6-30 members, every table size 2-6 and the ranges
3-4, 3-6, 2-6, seasons of 1-10 rounds: no pair meets more than ceil(lambda) + 1 times,
where lambda is the average number of meetings per pair (the unavoidable share), and the
spread (most minus fewest meetings of any two members) is at most ceil(R / 2) + 1.
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations

import pytest

from leagues import pairing
from leagues.standings import points, rate, timeout_streak

SIZES = [(2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (3, 4), (3, 6), (2, 6)]


def members(n: int) -> list[str]:
    return [f"p{i:02d}" for i in range(n)]


def average_meetings(rounds: list[pairing.Round], n: int) -> float:
    pairs = sum(len(t) * (len(t) - 1) // 2 for r in rounds for t in r.tables)
    return pairs / (n * (n - 1) / 2)


@pytest.mark.parametrize("lo,hi", SIZES)
@pytest.mark.parametrize("rounds", [4, 10])
def test_pair_meetings_stay_within_the_stated_bound(lo, hi, rounds):
    for n in range(6, 31):
        schedule = pairing.season(members(n), rounds, f"seed-{n}", lo, hi)
        most, spread = pairing.meetings(schedule, members(n))
        lam = average_meetings(schedule, n)
        assert most <= math.ceil(lam) + 1, (n, most, lam)
        assert spread <= math.ceil(rounds / 2) + 1, (n, spread)


@pytest.mark.parametrize("lo,hi", SIZES)
def test_every_table_is_within_the_limits_and_byes_rotate(lo, hi):
    for n in range(6, 31):
        schedule = pairing.season(members(n), 6, "s", lo, hi)
        byes: Counter[str] = Counter()
        for r in schedule:
            seated = [m for t in r.tables for m in t]
            assert all(lo <= len(t) <= hi for t in r.tables)
            assert sorted(seated + list(r.byes)) == members(n)  # everyone once
            assert len(r.byes) < lo or not r.tables  # nobody sits out who could be seated
            byes.update(r.byes)
        counts = [byes[m] for m in members(n)]
        assert max(counts) - min(counts) <= 1


def test_the_same_seed_and_members_give_the_same_schedule_in_any_order():
    one = pairing.season(members(13), 5, "abc", 3, 4)
    two = pairing.season(list(reversed(members(13))), 5, "abc", 3, 4)
    assert one == two
    assert pairing.season(members(13), 5, "abd", 3, 4) != one


def test_a_round_depends_only_on_the_seed_and_the_rounds_before_it():
    schedule = pairing.season(members(11), 4, "s", 3, 4)
    history = pairing.History.of(schedule[:2])
    assert pairing.pair_round(members(11), history, "s", 3, 3, 4) == schedule[2]


def test_seats_rotate():
    schedule = pairing.season(members(12), 8, "s", 4, 4)
    seats = Counter((m, i) for r in schedule for t in r.tables for i, m in enumerate(t))
    for m in members(12):
        held = [seats[(m, i)] for i in range(4)]
        assert max(held) - min(held) <= 2, (m, held)


def test_table_sizes_seat_everyone_they_can_in_as_few_even_tables_as_possible():
    assert pairing.table_sizes(10, 3, 4) == [4, 3, 3]
    assert pairing.table_sizes(12, 3, 4) == [4, 4, 4]
    assert pairing.table_sizes(5, 3, 4) == [4]  # one sits out: no table of 1 or 2
    assert pairing.table_sizes(7, 4, 4) == [4]
    assert pairing.table_sizes(2, 3, 6) == []


def test_tied_players_share_the_points_of_the_places_they_span():
    assert points({"a": 1, "b": 1, "c": 3, "d": 4}) == {"a": 2.5, "b": 2.5, "c": 1, "d": 0}
    assert points({"a": 1, "b": 2, "c": 2}, [5, 3, 1]) == {"a": 5, "b": 2, "c": 2}


def test_ratings_move_winners_up_and_treat_ties_alike():
    start = {p: (25.0, 25 / 3) for p in "abc"}
    after = rate(start, {"a": 1, "b": 1, "c": 3})
    assert after["a"] == after["b"] and after["a"][0] > 25 > after["c"][0]
    assert all(sigma < 25 / 3 for _, sigma in after.values())


def test_a_decision_made_in_time_ends_a_run_of_timeouts():
    marks = [("t1", True), ("t2", True), ("t3", False), ("t4", True)]
    assert timeout_streak(marks) == 1
    assert timeout_streak(marks[:2]) == 2
    assert timeout_streak([("t9", True), ("t1", False), ("t5", True)]) == 2  # by time


def test_meetings_count_every_pair_of_members():
    r = pairing.Round((("a", "b", "c"),), ("d",))
    assert pairing.meetings([r], "abcd") == (1, 1)
    assert pairing.meetings([r, r], "abc") == (2, 0)
    assert all(pairing.pair(x, y) == pairing.pair(y, x) for x, y in combinations("abc", 2))

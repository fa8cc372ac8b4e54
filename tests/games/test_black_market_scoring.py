"""Black Market final scoring: cubes, majorities, card sets and the tie-breaks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.black_market.data import set_points
from games.black_market.scoring import colour_bonus, result, scored_event, scores
from tests.games.black_market_table import arrange, started


@pytest.mark.parametrize(
    ("counts", "first", "second", "expected"),
    [
        ([3, 4, 7], 6, 3, [0, 3, 6]),  # the rulebook's example
        ([5, 5, 1], 6, 3, [4, 4, 0]),  # tied majority: (6 + 3) // 2 each, no runner-up
        ([5, 5, 5], 7, 4, [3, 3, 3]),
        ([6, 2, 2], 5, 3, [5, 1, 1]),  # tied runner-up: 3 // 2 each
        ([4, 0, 0], 2, 1, [2, 0, 0]),  # nobody else has a cube: no runner-up
        ([0, 0, 0], 7, 4, [0, 0, 0]),
        ([2, 1, 0, 1], 1, 0, [1, 0, 0, 0]),
    ],
)
def test_majority_and_runner_up_values_and_their_tie_splits(counts, first, second, expected):
    assert colour_bonus(counts, first, second) == expected


@pytest.mark.parametrize(("cards", "points"), [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 15)])
def test_information_card_sets_score_one_three_six_ten_fifteen(cards, points):
    assert set_points(cards) == points
    assert set_points(6) == 15


def test_a_score_is_cubes_plus_colour_values_plus_the_card_set():
    state = arrange(
        started(3),
        steps={"red": 3, "blue": 0},
        vp={0: {"red": 4, "blue": 1}, 1: {"red": 2}, 2: {"blue": 1}},
        cards={0: ["notary", "dry_cellar"]},
        card="spare_disc",
    )
    table = {s.seat: s for s in scores(state)}
    # red 3/2: seat 0 first (3), seat 1 second (2); blue 1/0 tied: (1 + 0) // 2 = 0 each
    assert table[0].total == 5 + 3 + 0 + 3
    assert table[1].total == 2 + 2 and table[2].total == 1


def test_a_tie_is_broken_by_vp_in_the_colour_of_highest_exchange_value_then_the_next():
    rows = {"red": 9, "green": 8, "blue": 7, "yellow": 3, "purple": 2, "orange": 1}
    state = arrange(
        started(3),
        rows=rows,
        steps=dict.fromkeys(["red", "green", "blue", "yellow", "purple", "orange"], 0),
        vp={0: {"red": 1, "yellow": 3}, 1: {"red": 1, "green": 1, "yellow": 2}, 2: {"blue": 4}},
    )
    res = result(state)
    totals = {s.seat: s.score for s in res.standings}
    assert totals[0] == totals[1]
    # red: seats 0 and 1 tie (1 + 0) // 2 = 0 each; green: seat 1 ahead -> seat 1 wins
    places = {s.seat: s.place for s in res.standings}
    assert places[1] < places[0]


def test_a_complete_tie_shares_the_place_and_the_notary_breaks_a_tie_on_totals():
    state = arrange(started(3), vp={0: {"red": 2}, 1: {"red": 2}})
    res = result(state)
    assert set(res.winners) == {0, 1} and {s.place for s in res.standings if s.seat < 2} == {1}
    state = arrange(
        state,
        steps={"red": 0, "green": 0},
        cards={1: ["notary"]},
        vp={0: {"red": 2}, 1: {"green": 1}},
        card="spare_disc",
    )
    res = result(state)
    assert [s.score for s in res.standings] == [3, 3, 0]  # 2 + 1 against 1 + 1 + 1 (card)
    assert res.winners == (1,)


def test_the_scored_event_carries_every_figure_and_the_winners():
    state = arrange(started(3), vp={2: {"green": 3}})
    state = replace(state, end_reason="supply", final=True)
    data = scored_event(state).data
    assert data["winners"] == [2] and data["reason"] == "supply"
    assert data["scores"][2]["total"] == 3 + data["scores"][2]["bonus"]["green"]
    assert set(data["scores"][0]) == {
        "seat",
        "total",
        "cubes",
        "bonus",
        "by_colour",
        "cards",
        "card_points",
    }

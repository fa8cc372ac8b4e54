"""Goblin Market scoring: three best suits count for a player, the rest against; tie-breaks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.goblin_market import GAME
from games.goblin_market.scoring import score_cards
from tests.games.goblin_market_table import PASS, act, names, only, table


def test_the_three_biggest_suits_score_plus_and_the_rest_minus():
    cards = [
        "The Pact",
        "The Diplomat",
        "The Mountain",
        "Ace of Waves",
        "The Darkness",
        "The Calamity",
    ]
    score = score_cards(0, cards)
    assert score.suits == {"Moons": 3, "Suns": 3, "Waves": 2, "Leaves": 0, "Wyrms": 2, "Knots": 0}
    assert (score.positive, score.score) == (8, 6)


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        (["The Mountain"], 2),  # both suits among the three best: +2
        (["Ace of Moons", "Ace of Suns", "Ace of Waves", "The Battle"], 1),  # The Battle: -2
        (["The Pact", "The Diplomat", "The Mountain", "The Merchant"], 6),  # Merchant: 0
        (["The Huntress", "The Bard", "The Sea", "The End"], 2),  # Crowns count once
        ([], 0),
    ],
)
def test_number_cards_count_for_both_suits_and_others_once(cards, expected):
    assert score_cards(0, cards).score == expected


def _finished(edition: str):
    owned = {
        0: ["The Diplomat"],  # 2 points, 2 positive
        1: ["The Mountain", "The Journey", "The Battle"],  # 2 points, 4 positive
        2: [],
    }
    state, _ = table([10, 10, 10], owned=owned, edition=edition)
    return replace(state, phase="over")


def test_english_edition_breaks_a_tie_by_positive_points():
    result = GAME.result(_finished("en"))
    assert result.winners == (1,)
    assert [(s.seat, s.score, s.place) for s in result.standings] == [
        (1, 2, 1),
        (0, 2, 2),
        (2, 0, 3),
    ]
    assert result.detail["edition"] == "en"
    assert result.detail["scores"][1] == {
        "seat": 1,
        "score": 2,
        "positive": 4,
        "suits": {"Moons": 2, "Suns": 1, "Waves": 1, "Leaves": 0, "Wyrms": 1, "Knots": 1},
    }


def test_spanish_edition_shares_a_tie_for_most_points():
    result = GAME.result(_finished("es"))
    assert result.winners == (0, 1)
    assert [(s.seat, s.place) for s in result.standings] == [(0, 1), (1, 1), (2, 3)]


def test_english_tie_on_points_and_positive_points_is_shared():
    owned = {0: ["The Diplomat"], 1: ["The Mountain"], 2: []}
    state, _ = table([10, 10, 10], owned=owned)
    assert GAME.result(state).winners == (0, 1)


def test_the_game_scored_event_carries_scores_and_winners():
    state, _ = table(
        [10, 10, 10],
        deck_top=["The Bard", "The Author", "The Desert", "The Origin"],
        owned={1: ["The Pact"]},
        deck_size=4,
    )
    state, events = act(state, (0, PASS), (1, PASS), (2, PASS))
    assert names(events)[-1] == "GameScored"
    scored = only(events, "GameScored")[0]
    assert scored["winners"] == [1]
    assert scored["scores"] == GAME.result(state).detail["scores"]
    assert GAME.result(state).to_json()["winners"] == [1]


def test_english_tie_break_by_positive_points_applies_only_to_first_place():
    owned = {
        0: ["The Pact", "The Diplomat"],  # 4 points
        1: ["The Mountain", "The Journey", "The Battle"],  # 2 points, 4 positive
        2: ["The Lunatic"],  # 2 points, 2 positive
    }
    state, _ = table([10, 10, 10], owned=owned)
    result = GAME.result(state)
    assert result.winners == (0,)
    assert [(s.seat, s.score, s.place) for s in result.standings] == [
        (0, 4, 1),
        (1, 2, 2),
        (2, 2, 2),
    ]

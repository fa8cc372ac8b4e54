"""Sorcerous Futures scoring: the rulebook's examples, Pawns, the Crown bonus, ties."""

from __future__ import annotations

from dataclasses import replace

from games.sorcerous_futures import GAME
from games.sorcerous_futures.scoring import card_worth, score_of, suit_values
from games.sorcerous_futures.state import EXCUSE
from tests.games.sorcerous_futures_table import (
    PASS,
    act,
    bid,
    only,
    quick_auction,
    start,
    table,
)


def test_rulebook_example_a_pawn_under_moons_and_a_seven_under_suns_make_moons_suns_worth_8():
    state, _ = table(valuations={"Ace of Moons": "The Harvest", "Ace of Suns": "The Castle"})
    values = suit_values(state)
    assert (values["Moons"], values["Suns"]) == (1, 7)
    assert card_worth("The Mountain", values) == 8


def test_rulebook_example_a_three_under_the_excuse_adds_3_for_the_crown_of_suns():
    state, _ = table(valuations={EXCUSE: "The Painter"})
    assert state.crowns[2] == "The Bard"  # the Crown of Suns
    state, _ = act(state, (0, start("The Mountain", "open")), (1, PASS), (2, bid(5)), (0, PASS))
    figures = score_of(state, 2)
    assert (figures.gold, figures.cards, figures.crown_bonus) == (85, 8, 3)
    assert figures.score == 96


def test_a_bought_pawn_scores_all_three_of_its_suits_and_its_opening_bid_is_ten():
    state, _ = table()
    state, events = act(state, (0, start("The Watchman", "open")), (1, PASS), (2, PASS))
    assert only(events, "AuctionWon")[0]["amount"] == 10
    # The Watchman: Moons (Pawn: 1) + Wyrms (The Origin: 2) + Knots (The Journey: 3)
    figures = score_of(state, 0)
    assert (figures.gold, figures.cards, figures.crown_bonus) == (80, 6, 0)


def test_a_valuation_pawn_is_worth_one_and_a_number_its_rank():
    state, _ = table(valuations={"Ace of Waves": "The Borderland", "Ace of Leaves": "The Pact"})
    values = suit_values(state)
    assert (values["Waves"], values["Leaves"]) == (1, 9)
    assert card_worth("The Sailor", values) == 10


def test_the_crown_bonus_counts_once_per_card_sharing_a_suit():
    state, _ = table()
    state = replace(state, owned=((), (), ("The Mountain", "The Diplomat", "The Sailor")))
    assert score_of(state, 2).crown_bonus == 2 * 3  # two Suns cards, a 3 under the Excuse


def test_a_tie_goes_to_the_lowest_total_of_valuation_cards_in_front_of_the_player():
    state, _ = table()  # fronts: seat 0 1+7, seat 1 2+2, seat 2 2+3; gold all 90
    result = GAME.result(state)
    assert [(s.seat, s.score, s.place) for s in result.standings] == [
        (1, 90, 1),
        (2, 90, 2),
        (0, 90, 3),
    ]
    assert result.winners == (1,)
    totals = {s["seat"]: s["valuation_total"] for s in result.detail["scores"]}
    assert totals == {0: 8, 1: 4, 2: 5}


def test_a_higher_score_beats_a_lower_valuation_total():
    state, _ = table()
    state = replace(state, gold=(91, 90, 90))
    assert GAME.result(state).winners == (0,)


def test_a_tie_on_score_and_valuation_total_is_shared():
    vals = {
        "Ace of Waves": "The Author",
        "Ace of Leaves": "The Journey",
        "Ace of Wyrms": "The Origin",
        "Ace of Knots": "The Savage",
    }
    state, _ = table(valuations=vals)
    result = GAME.result(state)
    assert result.winners == (1, 2)
    assert [(s.seat, s.place) for s in result.standings] == [(1, 1), (2, 1), (0, 3)]


def test_the_four_player_excuse_holders_tie_total_is_the_card_under_the_excuse():
    state, _ = table(4)  # holder seat 0: The Painter (3); others 8, 4 and 5
    result = GAME.result(state)
    totals = {s["seat"]: s["valuation_total"] for s in result.detail["scores"]}
    assert totals == {0: 3, 1: 8, 2: 4, 3: 5}
    assert result.winners == (0,)


def test_the_game_scored_event_reveals_everything_and_carries_the_result():
    state, _ = table()
    for _ in range(20):
        state, events = quick_auction(state)
    result = GAME.result(state)
    scored = only(events, "GameScored")[0]
    assert scored == {"scores": result.detail["scores"], "winners": list(result.winners)}
    revealed = only(events, "ValuationsRevealed")[0]["valuations"]
    assert {"under": EXCUSE, "card": "The Painter"} in revealed and len(revealed) == 7
    crowns = only(events, "CrownsRevealed")[0]["crowns"]
    assert crowns == [
        {"seat": 0, "crown": "The Sea"},
        {"seat": 1, "crown": "The Calamity"},
        {"seat": 2, "crown": "The Bard"},
    ]
    assert GAME.view(state, None, "en")["winners"] == list(result.winners)

"""Goblin Market scenarios: how auctions run, split and end."""

from __future__ import annotations

import pytest

from games.goblin_market import GAME
from games.rng import Rng
from tests.games.goblin_market_table import (
    PASS,
    TAKE_ALL,
    act,
    bid,
    choose,
    names,
    only,
    table,
    take_one,
)

# --- Auctions -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size_card", "size"), [("Ace of Moons", 1), ("The Pact", 2), ("The Huntress", 3)]
)
def test_the_size_card_sets_the_auction_size_and_is_set_aside(size_card, size):
    state, events = table([10, 10, 10], deck_top=[size_card])
    assert only(events, "AuctionSizeRevealed") == [{"card": size_card, "size": size}]
    assert len(state.offer) == size and size_card not in state.offer
    view = GAME.view(state, None, "en")
    assert [c["id"] for c in view["size_cards"]] == [size_card]
    assert view["auction_deck_size"] == 35 - size


def test_all_pass_discards_the_cards_and_the_same_player_opens_again():
    state, _ = table([10, 10, 10], deck_top=["The Author", "The Desert", "The Origin"])
    state, _ = act(state, (0, PASS))
    state, events = act(state, (1, PASS), (2, PASS))
    assert names(events)[:4] == ["BidPassed", "BidPassed", "AllPassed", "AuctionSizeRevealed"]
    assert only(events, "AllPassed") == [{"discarded": ["The Desert", "The Origin"]}]
    assert "SisterhoodPaid" not in names(events) and "GoblinCardRevealed" not in names(events)
    assert only(events, "AuctionCardsRevealed")[0]["opener"] == 0
    assert [o.seat for o in GAME.owed(state)] == [0]
    assert state.discards == ("The Desert", "The Origin")


def test_one_card_auction_goes_straight_to_the_winner():
    state, _ = table([10, 10, 10], deck_top=["Ace of Moons", "The Author"])
    state, events = act(state, (0, bid(3)), (1, bid(4)), (2, PASS), (0, PASS))
    assert names(events)[4:6] == ["AuctionWon", "CardsTaken"]
    assert only(events, "CardsTaken") == [{"seat": 1, "cards": ["The Author"], "paid": 4}]
    assert only(events, "AuctionCardsRevealed")[0]["opener"] == 1


def test_take_all_charges_only_the_winner():
    state, _ = table([10, 10, 10], deck_top=["The Author", "The Desert", "The Origin"])
    state, _ = act(state, (0, bid(3)), (1, bid(5)), (2, PASS), (0, PASS))
    assert GAME.owed(state)[0].kind == "split_choice"
    state, events = act(state, (1, TAKE_ALL))
    assert only(events, "CardsTaken") == [
        {"seat": 1, "cards": ["The Desert", "The Origin"], "paid": 5}
    ]
    goblin = {p["seat"]: p["coins"] for p in only(events, "GoblinPaid")[0]["payments"]}
    assert state.coins[0] == 10 + goblin.get(0, 0)


def test_two_card_split_gives_second_place_the_other_card():
    state, _ = table([10, 10, 10], deck_top=["The Author", "The Desert", "The Origin"])
    state, _ = act(state, (0, bid(3)), (1, bid(5)), (2, PASS), (0, PASS))
    state, events = act(state, (1, take_one("The Origin")))
    assert only(events, "CardsTaken") == [
        {"seat": 1, "cards": ["The Origin"], "paid": 5},
        {"seat": 0, "cards": ["The Desert"], "paid": 3},
    ]


def test_two_card_split_by_the_only_bidder_discards_the_other_card():
    state, _ = table([10, 10, 10], deck_top=["The Author", "The Desert", "The Origin"])
    state, _ = act(state, (0, bid(4)), (1, PASS), (2, PASS))
    state, events = act(state, (0, take_one("The Desert")))
    assert names(events)[:3] == ["CardsTaken", "CardsDiscarded", "SisterhoodPaid"]
    assert only(events, "CardsDiscarded") == [{"cards": ["The Origin"]}]


def test_three_card_split_with_two_bidders_discards_the_last_card():
    state, _ = table([10, 10, 10], deck_top=["The Bard", "The Author", "The Desert", "The Origin"])
    state, _ = act(state, (0, PASS), (1, bid(2)), (2, bid(3)), (1, PASS))
    state, _ = act(state, (2, take_one("The Origin")))
    assert GAME.owed(state)[0].kind == "card_choice" and GAME.owed(state)[0].seat == 1
    state, events = act(state, (1, choose("The Desert")))
    assert only(events, "CardsTaken") == [{"seat": 1, "cards": ["The Desert"], "paid": 2}]
    assert only(events, "CardsDiscarded") == [{"cards": ["The Author"]}]


def test_the_winner_of_three_cards_can_never_take_two():
    state, _ = table([10, 10, 10], deck_top=["The Bard", "The Author", "The Desert", "The Origin"])
    state, _ = act(state, (0, bid(2)), (1, PASS), (2, PASS))
    assert sorted(spec.type for spec in GAME.legal(state, 0)) == ["take_all", "take_one"]
    with pytest.raises(Exception) as err:
        act(state, (0, {"type": "take_one", "card": ["The Author", "The Desert"]}))
    assert err.value.code == "invalid_action"
    with pytest.raises(Exception) as err:
        act(state, (0, {"type": "take_two", "cards": ["The Author", "The Desert"]}))
    assert err.value.code == "invalid_action"


def test_a_bidder_who_cannot_outbid_is_passed_by_the_rules():
    state, _ = table([10, 10, 12], deck_top=["Ace of Moons", "The Author"])
    state, events = act(state, (0, bid(10)))
    assert only(events, "BidPassed") == [{"seat": 1, "forced": True}]
    assert [o.seat for o in GAME.owed(state)] == [2]
    state, events = act(state, (2, bid(11)))
    assert only(events, "BidPassed") == [{"seat": 0, "forced": True}]
    assert only(events, "AuctionWon") == [{"seat": 2, "amount": 11}]


def test_a_player_without_coins_is_passed_even_when_opening():
    state, events = table([0, 10, 10], deck_top=["Ace of Moons", "The Author"])
    assert only(events, "BidPassed") == [{"seat": 0, "forced": True}]
    assert [o.seat for o in GAME.owed(state)] == [1]


def test_bidding_wraps_around_the_table_until_one_bid_stands():
    state, _ = table([10, 10, 10, 10], deck_top=["Ace of Moons", "The Author"])
    state, events = act(state, (0, bid(1)), (1, PASS), (2, bid(2)), (3, PASS), (0, bid(3)))
    assert [o.seat for o in GAME.owed(state)] == [2]
    state, events = act(state, (2, PASS))
    assert only(events, "AuctionWon") == [{"seat": 0, "amount": 3}]


# --- The end of the game ------------------------------------------------------------


def test_three_or_fewer_cards_are_sold_in_a_final_auction():
    state, events = table(
        [10, 10, 10],
        deck_top=[
            "The Author",
            "The Desert",
            "The Origin",
            "The Journey",
            "The Painter",
            "The Savage",
        ],
        deck_size=6,
    )
    state, events = act(state, (0, bid(1)), (1, PASS), (2, PASS), (0, TAKE_ALL))
    assert "FinalAuctionStarted" in names(events)
    assert only(events, "FinalAuctionStarted") == [{"size": 3}]
    assert only(events, "AuctionCardsRevealed")[-1]["cards"] == [
        "The Journey",
        "The Painter",
        "The Savage",
    ]
    assert GAME.view(state, None, "en")["auction"]["size_card"] is None
    state, events = act(state, (0, bid(2)), (1, bid(3)), (2, PASS), (0, PASS))
    state, events = act(state, (1, take_one("The Savage")), (0, choose("The Painter")))
    assert names(events)[-1] == "GameScored"
    assert "GoblinPaid" in names(events) and "GoblinDeckReshuffled" not in names(events)
    assert GAME.is_over(state) and GAME.owed(state) == [] and GAME.legal(state, 0) == []


def test_an_auction_that_empties_the_deck_ends_the_game_without_a_final_auction():
    state, _ = table(
        [10, 10, 10], deck_top=["The Bard", "The Author", "The Desert", "The Origin"], deck_size=4
    )
    state, events = act(state, (0, PASS), (1, PASS), (2, PASS))
    assert names(events)[-2:] == ["AllPassed", "GameScored"]
    assert GAME.is_over(state)
    with pytest.raises(Exception) as err:
        GAME.decide(state, 0, PASS, Rng(b"x"))
    assert err.value.code == "game_over"

"""Goblin Market scenarios: the rulebook's worked examples, then sisterhood and goblin money."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.goblin_market import GAME
from games.goblin_market.payouts import goblin_coins, sisterhood_coins
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

ELISE, MORGAN, EVAN = 0, 1, 2


# --- The rulebook's worked examples -------------------------------------------------


def test_three_card_split_pays_each_placed_bidder_their_last_bid():
    deck_top = ["The Huntress", "The Author", "The Desert", "The Origin"]
    state, _ = table([20, 20, 20], deck_top=deck_top)
    state, events = act(
        state,
        (ELISE, bid(2)),
        (MORGAN, bid(7)),
        (EVAN, bid(8)),
        (ELISE, PASS),
        (MORGAN, bid(9)),
        (EVAN, bid(10)),
        (MORGAN, bid(12)),
        (EVAN, bid(13)),
        (MORGAN, bid(14)),
        (EVAN, bid(15)),
        (MORGAN, PASS),
    )
    assert only(events, "AuctionWon") == [{"seat": EVAN, "amount": 15}]
    state, events = act(state, (EVAN, take_one("The Desert")))
    assert [o.seat for o in GAME.owed(state)] == [MORGAN]
    state, more = act(state, (MORGAN, choose("The Origin")))
    assert only(events + more, "CardsTaken") == [
        {"seat": EVAN, "cards": ["The Desert"], "paid": 15},
        {"seat": MORGAN, "cards": ["The Origin"], "paid": 14},
        {"seat": ELISE, "cards": ["The Author"], "paid": 2},
    ]
    assert only(more, "SisterhoodPaid") == [{"digit": 5, "payments": []}]
    goblin = {p["seat"]: p["coins"] for p in only(more, "GoblinPaid")[0]["payments"]}
    assert state.coins == (
        20 - 2 + goblin.get(ELISE, 0),
        20 - 14 + goblin.get(MORGAN, 0),
        20 - 15 + goblin.get(EVAN, 0),
    )


def test_winning_bid_of_nine_pays_three_per_nine_two_per_eight_one_per_seven():
    shar = 0
    owned = {
        shar: ["The Merchant"],
        1: ["The Pact", "The Diplomat", "The Castle"],
        2: ["The Darkness", "The Mill", "Ace of Moons"],
    }
    state, _ = table([10, 10, 10], deck_top=["Ace of Suns", "The Author"], owned=owned)
    state, events = act(state, (shar, bid(9)), (1, PASS), (2, PASS))
    assert only(events, "SisterhoodPaid") == [
        {"digit": 9, "payments": [{"seat": 1, "coins": 6}, {"seat": 2, "coins": 5}]}
    ]


def test_winning_bid_of_eleven_pays_three_per_ace_two_per_crown_one_per_nine():
    tarrant = 2
    owned = {
        0: ["Ace of Suns", "The Bard", "The Merchant"],
        1: ["Ace of Moons", "Ace of Waves"],
        tarrant: ["Ace of Knots"],
    }
    state, _ = table([10, 10, 15], deck_top=["Ace of Leaves", "The Author"], owned=owned)
    state, events = act(state, (0, PASS), (1, PASS), (tarrant, bid(11)))
    assert only(events, "SisterhoodPaid") == [
        {"digit": 1, "payments": [{"seat": 0, "coins": 6}, {"seat": 1, "coins": 6}]}
    ]


def test_harvest_pays_two_coins_to_a_player_owning_only_the_bard():
    raphael = 1
    state, _ = table(
        [10, 10, 10],
        deck_top=["Ace of Leaves", "The Author"],
        goblin_top=["The Harvest"],
        owned={raphael: ["The Bard"]},
    )
    state, events = act(state, (0, bid(1)), (1, PASS), (2, PASS))
    assert only(events, "GoblinCardRevealed") == [{"card": "The Harvest"}]
    payments = only(events, "GoblinPaid")[0]["payments"]
    # The winner now owns The Author (Moons, Knots): only Suns and Leaves pay her.
    assert payments == [
        {"seat": 0, "coins": 2},
        {"seat": raphael, "coins": 2},
        {"seat": 2, "coins": 3},
    ]


# --- Sisterhood and goblin money ----------------------------------------------------


@pytest.mark.parametrize(
    ("digit", "three", "two", "one"),
    [
        (9, "The Pact", "The Mill", "The Cave"),
        (1, "Ace of Moons", "The Sea", "The Pact"),
        (0, "The Sea", "The Pact", "The Mill"),
        (2, "The Author", "Ace of Moons", "The Sea"),
    ],
)
def test_sisterhood_rates_wrap_crowns_below_aces(digit, three, two, one):
    assert sisterhood_coins([three], digit) == 3
    assert sisterhood_coins([two], digit) == 2
    assert sisterhood_coins([one], digit) == 1
    assert sisterhood_coins(["The Forest"], digit) == 0


def test_bid_of_ten_pays_sisterhood_money_for_crowns():
    owned = {1: ["The Sea", "The Pact", "The Mill"], 2: ["Ace of Moons"]}
    state, _ = table([12, 11, 11], deck_top=["Ace of Leaves", "The Author"], owned=owned)
    state, events = act(state, (0, bid(10)), (1, PASS), (2, PASS))
    assert only(events, "SisterhoodPaid") == [{"digit": 0, "payments": [{"seat": 1, "coins": 6}]}]


def test_sisterhood_skips_players_who_got_a_card_but_pays_those_who_never_bid():
    owned = {0: ["The Pact"], 1: ["The Darkness"], 2: ["The Merchant"]}
    state, _ = table([10, 10, 10], deck_top=["The Author", "The Desert", "The Origin"], owned=owned)
    state, _ = act(state, (0, bid(4)), (1, bid(9)), (2, PASS), (0, PASS))
    state, events = act(state, (1, take_one("The Desert")))
    assert only(events, "SisterhoodPaid") == [{"digit": 9, "payments": [{"seat": 2, "coins": 3}]}]


def test_goblin_money_counts_suits_missing_from_every_owned_card():
    assert goblin_coins([], "The Harvest") == 3
    assert goblin_coins(["The Mountain"], "The Harvest") == 1
    assert goblin_coins(["The Mountain", "The Forest"], "The Harvest") == 0


def test_an_emptied_goblin_deck_is_reshuffled_in_secret():
    pawns = ["The Harvest", "The Watchman", "The Light Keeper", "The Borderland"]
    state, _ = table([40, 40, 40], deck_top=["Ace of Moons", "The Author"], courts=False)
    rng = Rng(b"reshuffle")
    events = []
    for _ in range(4):
        state, more = act(
            state,
            (state.to_act, bid(1)),
            *((s, PASS) for s in _others(state, state.to_act)),
            rng=rng,
        )
        events += more
    revealed = [d["card"] for d in only(events, "GoblinCardRevealed")]
    assert sorted(revealed) == sorted(pawns)
    shuffles = [e for e in events if e.type.endswith(".GoblinDeckReshuffled")]
    assert len(shuffles) == 1 and shuffles[0].visible_to == ()
    assert sorted(shuffles[0].data["order"]) == sorted(pawns)
    assert shuffles[0].data["order"] == Rng(b"reshuffle").shuffle(pawns)
    assert GAME.redact(shuffles[0], 0) == {"size": 4}
    assert state.goblin_deck == tuple(shuffles[0].data["order"])


def _others(state, seat):
    i = state.order.index(seat)
    return [state.order[(i + k) % len(state.order)] for k in range(1, len(state.order))]


def test_without_courts_the_goblin_deck_is_the_four_pawns():
    events = GAME.setup({"courts": False}, (0, 1, 2), Rng(b"pawns"))
    shuffled = next(e for e in events if e.type.endswith(".DecksShuffled"))
    assert sorted(shuffled.data["goblin_deck"]) == sorted(
        ["The Harvest", "The Watchman", "The Light Keeper", "The Borderland"]
    )
    assert len(shuffled.data["auction_deck"]) == 36
    assert shuffled.visible_to == ()
    assert GAME.redact(shuffled, None) == {"auction_deck_size": 36, "goblin_deck_size": 4}


def test_the_goblin_deck_is_reshuffled_when_its_last_card_is_turned_in_the_final_auction():
    pawns = ["The Harvest", "The Watchman", "The Light Keeper", "The Borderland"]
    state, events = table([10, 10, 10], courts=False, deck_size=3)
    assert only(events, "FinalAuctionStarted") == [{"size": 3}]
    state = replace(state, goblin_deck=tuple(pawns[:1]), goblin_used=tuple(pawns[1:]))
    state, events = act(state, (0, bid(1)), (1, PASS), (2, PASS), (0, TAKE_ALL), rng=Rng(b"f"))
    assert names(events)[-3:] == ["GoblinPaid", "GoblinDeckReshuffled", "GameScored"]
    assert sorted(state.goblin_deck) == sorted(pawns) and GAME.is_over(state)

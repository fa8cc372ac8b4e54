"""Sorcerous Futures scenarios: open and closed auctions, turns, groups, the Excuse reveal."""

from __future__ import annotations

import pytest

from games.base import PhaseClosed, RuleViolation
from games.rng import NoRng
from games.sorcerous_futures import GAME
from games.sorcerous_futures.state import EXCUSE
from tests.games.sorcerous_futures_table import (
    PASS,
    VALUATIONS,
    act,
    bid,
    names,
    only,
    quick_auction,
    resolve,
    sealed,
    start,
    table,
)


def _error(state, seat, action) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        GAME.decide(state, seat, action, NoRng())
    return err.value


# --- Open auctions -------------------------------------------------------------------


def test_an_open_auction_opens_at_the_rank_goes_once_around_and_back_to_the_active_player():
    state, _ = table()
    state, events = act(state, (0, start("The Forest", "open")))
    assert names(events) == ["AuctionStarted", "BidPlaced"]
    assert only(events, "BidPlaced") == [{"seat": 0, "amount": 5, "opening": True}]
    assert [o.seat for o in GAME.owed(state)] == [1]
    state, _ = act(state, (1, bid(7)))
    assert [o.seat for o in GAME.owed(state)] == [2]
    state, _ = act(state, (2, PASS))
    assert [(o.seat, o.kind) for o in GAME.owed(state)] == [(0, "bid")]
    state, events = act(state, (0, bid(9)))
    assert only(events, "AuctionWon") == [
        {"seat": 0, "card": "The Forest", "amount": 9, "format": "open"}
    ]
    assert state.gold == (81, 90, 90) and state.owned[0] == ("The Forest",)
    assert only(events, "TurnStarted") == [{"seat": 1, "number": 2}]


def test_a_pawn_opens_at_ten():
    state, _ = table()
    state, events = act(state, (0, start("The Watchman", "open")))
    assert only(events, "BidPlaced")[0]["amount"] == 10


def test_when_nobody_raises_the_active_player_buys_at_the_opening_bid():
    state, _ = table()
    state, events = act(state, (0, start("The Mountain", "open")), (1, PASS), (2, PASS))
    assert only(events, "BidPassed")[-1] == {"seat": 0, "forced": True}
    assert only(events, "AuctionWon")[0] == {
        "seat": 0,
        "card": "The Mountain",
        "amount": 4,
        "format": "open",
    }
    assert state.gold == (86, 90, 90)


def test_the_highest_bidder_pays_the_bank_and_nobody_else_pays():
    state, _ = table()
    state, events = act(
        state, (0, start("The Battle", "open")), (1, bid(6)), (2, bid(11)), (0, PASS)
    )
    assert only(events, "AuctionWon")[0]["seat"] == 2
    assert state.gold == (90, 90, 79) and state.owned[2] == ("The Battle",)
    assert sum(state.gold) == 3 * 90 - 11  # the gold left the game


def test_a_player_who_cannot_outbid_is_passed_by_the_rules():
    state, _ = table(gold=[90, 5, 90])
    state, events = act(state, (0, start("The Forest", "open")))
    assert only(events, "BidPassed") == [{"seat": 1, "forced": True}]
    assert [o.seat for o in GAME.owed(state)] == [2]


def test_an_open_auction_needs_the_opening_bid_in_hand_otherwise_only_closed():
    state, _ = table(gold=[4, 90, 90])
    (spec,) = GAME.legal(state, 0)
    assert {"type": "start_auction", "card": "The Forest", "format": "open"} not in spec.choices
    assert {"type": "start_auction", "card": "The Mountain", "format": "open"} in spec.choices
    assert {"type": "start_auction", "card": "The Forest", "format": "closed"} in spec.choices
    err = _error(state, 0, start("The Forest", "open"))
    assert (err.code, err.field) == ("insufficient_gold", "format")
    assert _error(state, 0, start("The Watchman", "open")).code == "insufficient_gold"


def test_a_broke_active_player_may_only_call_closed_auctions():
    state, _ = table(gold=[0, 90, 90])
    (spec,) = GAME.legal(state, 0)
    assert spec.schema["properties"]["format"]["enum"] == ["closed"]
    assert all(c["format"] == "closed" for c in spec.choices)


def test_open_bids_must_beat_the_high_bid_and_fit_the_bidders_gold():
    state, _ = table(gold=[90, 20, 90])
    state, _ = act(state, (0, start("The Forest", "open")))
    assert _error(state, 1, bid(5)).code == "bid_too_low"
    err = _error(state, 1, bid(21))
    assert (err.code, err.field) == ("insufficient_gold", "amount")
    specs = {s.type: s for s in GAME.legal(state, 1)}
    assert specs["bid"].schema["properties"]["amount"] == {
        "type": "integer",
        "minimum": 6,
        "maximum": 20,
    }
    assert specs["bid"].choices == [bid(a) for a in range(6, 21)]


# --- Closed auctions -----------------------------------------------------------------


def test_a_closed_auction_asks_every_seat_for_a_sealed_bid_at_once():
    state, events = table()
    state, events = act(state, (0, start("The Sailor", "closed")))
    assert names(events) == ["AuctionStarted"]
    owed = GAME.owed(state)
    assert [o.seat for o in owed] == [0, 1, 2]
    assert all(o.simultaneous and o.kind == "sealed_bid" for o in owed)
    assert len({o.key for o in owed}) == 1
    assert all(o.default == sealed(0) for o in owed)
    assert GAME.ready(state) is None


def test_sealed_bids_stay_hidden_until_all_are_in_then_resolve_reveals_them():
    state, _ = table()
    state, _ = act(state, (0, start("The Sailor", "closed")))
    key = GAME.owed(state)[0].key
    state, events = act(state, (1, sealed(12)))
    (ev,) = events
    assert ev.visible_to == (1,) and GAME.redact(ev, 0) == {"seat": 1}
    assert GAME.redact(ev, None) == {"seat": 1}
    for seat in (0, 2, None):
        auction = GAME.view(state, seat, "en")["auction"]
        assert auction["sealed_submitted"] == [1] and auction["your_sealed_bid"] is None
        assert "12" not in str(GAME.view(state, seat, "en")["auction"])
    assert GAME.view(state, 1, "en")["auction"]["your_sealed_bid"] == 12
    state, _ = act(state, (0, sealed(10)), (2, sealed(3)))
    assert GAME.owed(state) == [] and GAME.ready(state) == key
    state, events = resolve(state)
    assert names(events)[:2] == ["SealedBidsRevealed", "AuctionWon"]
    assert only(events, "SealedBidsRevealed") == [
        {
            "bids": [
                {"seat": 0, "amount": 10},
                {"seat": 1, "amount": 12},
                {"seat": 2, "amount": 3},
            ]
        }
    ]
    assert only(events, "AuctionWon")[0] == {
        "seat": 1,
        "card": "The Sailor",
        "amount": 12,
        "format": "closed",
    }
    assert state.gold == (90, 78, 90)
    assert GAME.view(state, None, "en")["last_auction"]["bids"][1] == {"seat": 1, "amount": 12}


@pytest.mark.parametrize(
    ("active_turns", "bids", "winner"),
    [
        (0, {0: 5, 1: 8, 2: 8}, 1),  # active 0: clockwise 0, 1, 2
        (1, {0: 8, 1: 2, 2: 8}, 2),  # active 1: clockwise 1, 2, 0
        (2, {0: 8, 1: 8, 2: 8}, 2),  # active 2 is tied itself and goes first
        (0, {0: 0, 1: 0, 2: 0}, 0),  # no minimum: the active player takes it for free
    ],
)
def test_a_tie_goes_to_the_first_tied_player_clockwise_from_the_active_player(
    active_turns, bids, winner
):
    state, _ = table()
    for _ in range(active_turns):
        state, _ = quick_auction(state)
    assert state.active == active_turns
    before = state.gold
    state, events = quick_auction(state, bids)
    won = only(events, "AuctionWon")[0]
    assert (won["seat"], won["amount"]) == (winner, bids[winner])
    assert state.gold[winner] == before[winner] - bids[winner]
    assert all(state.gold[s] == before[s] for s in range(3) if s != winner)


def test_a_seat_submits_once_and_only_while_the_phase_is_open():
    state, _ = table()
    err = _error(state, 1, sealed(3))
    assert isinstance(err, PhaseClosed) and err.code == "phase_closed"
    state, _ = act(state, (0, start("The Sailor", "closed")), (1, sealed(3)))
    assert _error(state, 1, sealed(4)).code == "already_submitted"
    state, _ = act(state, (0, sealed(1)), (2, sealed(0)))
    assert _error(state, 2, sealed(1)).code == "already_submitted"
    state, _ = resolve(state)
    assert _error(state, 0, sealed(1)).code == "phase_closed"


def test_sealed_bids_run_from_zero_to_the_bidders_gold():
    state, _ = table(gold=[90, 0, 15])
    state, _ = act(state, (0, start("The Sailor", "closed")))
    assert _error(state, 2, sealed(-1)).code == "bid_too_low"
    assert _error(state, 2, sealed(16)).code == "insufficient_gold"
    (spec,) = GAME.legal(state, 1)
    assert spec.choices == [sealed(0)], "a player without gold still submits its 0"
    (spec,) = GAME.legal(state, 0)
    assert spec.choices == [sealed(n) for n in range(91)]  # up to 200 are listed
    assert spec.schema["properties"]["amount"] == {"type": "integer", "minimum": 0, "maximum": 90}


def test_the_wrong_action_in_a_sealed_phase_is_not_allowed():
    state, _ = table()
    state, _ = act(state, (0, start("The Sailor", "closed")))
    assert _error(state, 1, PASS).code == "action_not_allowed"
    state, _ = act(state, (1, sealed(0)))
    assert _error(state, 1, PASS).code == "not_your_turn"


# --- Turns, groups and the end --------------------------------------------------------


def test_the_active_player_moves_left_and_a_new_row_comes_when_the_row_is_empty():
    state, _ = table()
    actives = []
    for _ in range(5):
        actives.append(state.active)
        state, events = quick_auction(state)
    assert actives == [0, 1, 2, 0, 1]
    assert state.group == 2 and len(state.row) == 5 and state.active == 2
    assert only(events, "RowDealt")[0]["group"] == 2
    assert len(state.deck) == 28 - 7 - 10


def test_three_players_see_the_excuses_card_once_the_second_group_is_sold():
    state, _ = table()
    for _ in range(9):
        state, events = quick_auction(state)
        assert "ExcuseValuationRevealed" not in names(events)
    assert GAME.view(state, 1, "en")["valuations"][-1]["card"] is None
    state, events = quick_auction(state)
    i = names(events).index("ExcuseValuationRevealed")
    assert names(events)[i + 1] == "RowDealt"
    assert only(events, "ExcuseValuationRevealed") == [{"card": VALUATIONS[EXCUSE]}]
    for seat in (0, 1, 2, None):
        spot = GAME.view(state, seat, "en")["valuations"][-1]
        assert spot["under"]["id"] == EXCUSE and spot["card"]["id"] == VALUATIONS[EXCUSE]


def test_four_players_never_reveal_the_excuse_before_the_end():
    state, _ = table(4)
    for _ in range(19):
        state, events = quick_auction(state)
        assert "ExcuseValuationRevealed" not in names(events)
    assert GAME.view(state, 1, "en")["valuations"][-1]["card"] is None
    assert GAME.view(state, 0, "en")["valuations"][-1]["card"]["id"] == VALUATIONS[EXCUSE]


def test_the_game_ends_after_the_fourth_group_with_one_card_left_in_the_deck():
    state, _ = table(4)
    for _ in range(20):
        assert not GAME.is_over(state)
        state, events = quick_auction(state)
    assert GAME.is_over(state) and state.group == 4 and len(state.deck) == 1
    assert names(events)[-3:] == ["ValuationsRevealed", "CrownsRevealed", "GameScored"]
    assert GAME.owed(state) == [] and GAME.ready(state) is None
    assert _error(state, 1, PASS).code == "game_over"
    view = GAME.view(state, None, "en")
    assert all(p["crown"] is not None for p in view["players"])
    assert all(v["card"] is not None for v in view["valuations"])

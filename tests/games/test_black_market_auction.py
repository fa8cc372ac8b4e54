"""Black Market phases D and E: the card auction, the buyer's moves, selling, the storage limit."""

from __future__ import annotations

import pytest

from games.base import InvalidAction, RuleViolation
from games.black_market import GAME
from games.black_market.data import COLOURS
from games.black_market.state import BID, DISCARD, PRODUCE, RAISE, SELL, SHIFT
from games.rng import NoRng
from tests.games.black_market_table import (
    PASS,
    act,
    advance,
    arrange,
    bid,
    only,
    sell,
    started,
    submit,
)

RED, YELLOW, GREEN, BLUE = (COLOURS.index(c) for c in ("red", "yellow", "green", "blue"))
SPREAD = {"red": 2, "yellow": 4, "green": 5, "blue": 6, "purple": 7, "orange": 8}


def _error(state, seat, action) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        GAME.decide(state, seat, action, NoRng())
    return err.value


def auction(card: str = "notary", deck: list[str] | None = None, **facts):
    """Return a table at round 1's auction of `card`, arranged with `facts`."""
    state, _ = advance(started(3), BID)
    deck = ["dry_cellar", "spare_disc"] if deck is None else deck
    rows = {**SPREAD, **facts.pop("rows", {})}
    return arrange(state, rows=rows, card=card, deck=deck, **facts)


def test_bids_are_sealed_goods_of_one_colour_from_storage():
    state = auction(storage={0: {"red": 2, "blue": 1}})
    assert _error(state, 0, bid("red", "blue")).code == "mixed_colours"
    assert _error(state, 0, bid("red", "red", "red")).code == "insufficient_goods"
    state, events = submit(state, (0, bid("red", "red")))
    assert events[0].visible_to == (0,) and GAME.redact(events[0], 1) == {"seat": 0}
    assert _error(state, 0, bid()).code == "already_submitted"


def test_only_players_with_goods_in_storage_bid_and_nobody_bidding_removes_the_card():
    state = auction(storage={0: {}, 1: {}, 2: {}})
    state, _ = advance(started(3), BID)
    state = arrange(state, storage={0: {}, 1: {}, 2: {}}, card="notary", deck=["dry_cellar"])
    state, events = act(state, *((s, bid()) for s in state.expected))
    assert only(events, "CardRemoved") == [{"card": "notary", "reason": "no_bids", "seats": []}]
    assert "notary" in state.removed


def test_a_tie_on_goods_and_exchange_value_means_nobody_wins():
    state = auction(storage={0: {"red": 2}, 1: {"red": 2}, 2: {"blue": 1}})
    state, events = act(state, (0, bid("red", "red")), (1, bid("red", "red")), (2, bid("blue")))
    assert only(events, "CardRemoved")[0] == {"card": "notary", "reason": "tie", "seats": [0, 1]}
    assert not only(events, "AuctionWon") and not only(events, "VictoryValueRaised")
    assert state.storage[0][RED] == 2 and "notary" in state.removed


def test_the_auctioneers_nephew_wins_a_tie_nothing_else_breaks():
    state = auction(storage={0: {"red": 2}, 1: {"red": 2}}, cards={1: ["auctioneers_nephew"]})
    state, events = act(state, (0, bid("red", "red")), (1, bid("red", "red")), (2, bid()))
    assert only(events, "AuctionWon")[0]["by"] == "auctioneers_nephew"
    assert state.cards[1] == ("auctioneers_nephew", "notary")


def test_the_buyer_may_raise_one_colour_one_step_or_decline():
    state = auction(storage={0: {"blue": 1}}, steps={"red": 2})
    state, _ = act(state, (0, bid("blue")), (1, bid()), (2, bid()))
    assert state.phase == RAISE
    owed = GAME.owed(state)[0]
    assert (owed.seat, owed.kind, owed.default) == (0, "raise", PASS)
    assert {
        c["colour"] for s in GAME.legal(state, 0) if s.choices for c in s.choices if "colour" in c
    } == set(COLOURS)
    _, events = act(state, (0, PASS))
    assert only(events, "RaiseDeclined") == [{"seat": 0}] and only(events, "CardRevealed")
    state, events = act(state, (0, {"type": "raise", "colour": "red"}))
    assert only(events, "VictoryValueRaised") == [{"seat": 0, "colour": "red", "by": 1, "step": 3}]
    assert only(events, "CardRevealed") == [{"card": "dry_cellar"}]


def test_insider_tip_raises_two_steps():
    state = auction(card="insider_tip", storage={0: {"blue": 1}}, steps={"red": 2})
    state, _ = act(state, (0, bid("blue")), (1, bid()), (2, bid()))
    state, events = act(state, (0, {"type": "raise", "colour": "red"}))
    assert only(events, "VictoryValueRaised")[0]["step"] == 4


def test_rumour_mill_lets_the_buyer_move_one_exchange_value_a_row():
    state = auction(card="rumour_mill", storage={0: {"blue": 1}}, rows={**SPREAD, "purple": 11})
    state, _ = act(
        state,
        (0, bid("blue")),
        (1, bid()),
        (2, bid()),
    )
    state, _ = act(state, (0, PASS))
    assert state.phase == SHIFT and GAME.owed(state)[0].kind == "shift"
    shifts = [c for s in GAME.legal(state, 0) if s.type == "shift" for c in s.choices]
    assert {"type": "shift", "colour": "purple", "direction": "up"} not in shifts
    assert len(shifts) == 11
    bad = {"type": "shift", "colour": "purple", "direction": "up"}
    assert _error(state, 0, bad).code == "value_at_limit"
    state, events = act(state, (0, {"type": "shift", "colour": "red", "direction": "down"}))
    assert only(events, "ExchangeValueMoved")[0] == {
        "colour": "red",
        "by": -1,
        "row": 1,
        "reason": "rumour_mill",
        "seat": 0,
    }
    assert state.phase in (SELL, PRODUCE)


def test_flooded_market_drops_the_highest_exchange_values_when_revealed():
    rows = {**SPREAD, "purple": 8, "orange": 8}
    state = auction(deck=["flooded_market"], rows=rows)
    state, events = act(state, *((s, bid()) for s in state.expected))
    assert only(events, "CardRevealed") == [{"card": "flooded_market"}]
    moved = only(events, "ExchangeValueMoved")
    assert [(m["colour"], m["row"], m["reason"]) for m in moved] == [
        ("purple", 7, "flooded_market"),
        ("orange", 7, "flooded_market"),
    ]


def selling(**facts):
    """Return a table at round 1's sale, with `facts` arranged before the auction."""
    state = auction(**facts)
    state, _ = act(state, *((s, bid()) for s in state.expected))
    assert state.phase == SELL
    return state


def test_a_sale_must_be_paid_for_and_keeps_one_cube_per_vp():
    state = selling(storage={0: {"red": 9, "blue": 3}})  # red at L2: 5 cubes a VP; blue L6: 3
    assert state.expected == (0,)
    assert _error(state, 0, sell(red=3)).code == "insufficient_goods"
    with pytest.raises(InvalidAction):
        GAME.decide(state, 0, sell(red=5), NoRng())
    with pytest.raises(InvalidAction):
        GAME.decide(state, 0, {"type": "sell", "vp": {"gold": 1}}, NoRng())
    state, events = submit(state, (0, sell(red=1, blue=1)))
    assert events[0].visible_to == (0,)
    state, events = act(state)
    assert only(events, "GoodsSold") == [
        {"seat": 0, "vp": {"red": 1, "blue": 1}, "cubes": {"red": 5, "blue": 3}}
    ]
    assert state.vp[0][RED] == 1 and state.vp[0][BLUE] == 1 and state.storage[0][RED] == 4


def test_storage_above_ten_after_selling_is_discarded_by_choice_with_a_default():
    state = selling(
        storage={0: {"red": 6, "yellow": 6}, 1: {"green": 12}, 2: {"blue": 12}},
        cards={2: ["dry_cellar"]},
    )
    state, events = act(state, *((o.seat, sell()) for o in GAME.owed(state)))
    assert only(events, "GoodsDiscarded") == [{"seat": 1, "goods": {"green": 2}, "forced": True}]
    assert only(events, "DiscardOpened") == [{"seats": [0]}] and state.phase == DISCARD
    owed = GAME.owed(state)[0]
    assert owed.default == {"type": "discard", "goods": ["red", "yellow"]}
    assert _error(state, 0, {"type": "discard", "goods": ["red"]}).code == ("wrong_number_of_goods")
    assert _error(state, 0, {"type": "discard", "goods": ["blue", "red"]}).code == (
        "insufficient_goods"
    )
    state, events = act(state, (0, {"type": "discard", "goods": ["red", "red"]}))
    assert only(events, "RoundEnded") == [{"round": 1}] and state.phase == PRODUCE
    assert [sum(s) for s in state.storage] == [10, 10, 12]


def test_a_sale_may_name_only_the_colours_it_sells():
    import jsonschema

    state = selling(storage={0: {"red": 9, "blue": 3}})
    [spec] = GAME.legal(state, 0)
    assert "required" not in spec.schema["properties"]["vp"]  # a colour left out sells 0
    for action in (sell(blue=1), sell(), sell(red=1, blue=0)):
        jsonschema.validate(action, spec.schema)
        GAME.decide(state, 0, action, NoRng())

"""Black Market setup, goods on offer, secret production, and the three ways the game ends."""

from __future__ import annotations

import pytest

from games.base import RuleViolation
from games.black_market import GAME
from games.black_market.data import COLOURS, SUPPLY
from games.black_market.production import offer_for
from games.black_market.state import BID, FINAL, PRODUCE, PROPOSE, SELL
from games.kit import OVER
from games.rng import NoRng, Rng
from tests.games.black_market_table import (
    act,
    advance,
    arrange,
    bid,
    names,
    only,
    produce,
    started,
    submit,
)

RED, GREEN, BLUE = (COLOURS.index(c) for c in ("red", "green", "blue"))
# A spread where red alone is lowest (L2) and nothing nears the edges.
SPREAD = {"red": 2, "yellow": 4, "green": 5, "blue": 6, "purple": 7, "orange": 8}


def _error(state, seat, action) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        GAME.decide(state, seat, action, NoRng())
    return err.value


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_deals_six_goods_each_and_draws_rows_l2_to_l7_and_vp_values(players):
    events = GAME.setup({}, tuple(range(players)), Rng(b"table"))
    state = started(players)
    assert all(s == (1,) * 6 for s in state.storage)
    assert sorted(state.rows) == [2, 3, 4, 5, 6, 7]
    assert sorted(state.steps) == [0, 0, 0, 1, 1, 2]
    assert all(s + o == SUPPLY[players] for s, o in zip(state.supply, state.offer))
    assert SUPPLY == {3: 14, 4: 14, 5: 15, 6: 18}
    assert len(state.deck) == 9 and state.card is not None
    shuffled = next(e for e in events if e.type.endswith(".DeckShuffled"))
    assert shuffled.visible_to == () and len(shuffled.data["order"]) == 10
    drawn = next(e for e in events if e.type.endswith(".ExchangeValuesDrawn")).data
    assert [drawn["rows"][c] for c in drawn["draw"]] == [2, 3, 4, 5, 6, 7]
    assert state.phase == PRODUCE and state.round == 1


def test_the_offer_follows_each_row_but_never_exceeds_the_supply():
    state = arrange(
        started(3), rows={"red": 1, "green": 11}, storage={0: {"red": 10}, 1: {"red": 4}}
    )
    assert state.supply[RED] + state.offer[RED] == 2  # 17 red exist, 15 are stored
    assert state.offer[RED] == 2 and state.offer[GREEN] == 1
    assert offer_for(state)[RED] == 0  # the 2 are already out on offer


@pytest.mark.parametrize(
    ("goods", "code"),
    [
        (["red"] * 5, "production_limit"),
        (["red", "red", "green", "blue", "yellow"], "production_limit"),
        (["red"] * 4, "not_enough_discs"),
        (["red", "red", "red", "green", "green"], "production_limit"),
    ],
)
def test_production_is_at_most_four_goods_and_three_of_a_colour(goods, code):
    assert _error(started(3), 0, produce(*goods)).code == code


def test_three_and_one_or_two_and_two_fit_the_two_white_discs():
    state, _ = submit(started(3), (0, produce("red", "red", "red", "green")))
    state, _ = submit(state, (1, produce("red", "red", "green", "green")), (2, produce()))
    assert GAME.ready(state) == "produce-r1"


def test_grannys_basement_allows_five_goods_and_spare_disc_four_of_a_colour():
    state = arrange(started(3), cards={0: ["grannys_basement"], 1: ["spare_disc"]})
    assert _error(state, 0, produce(*["red"] * 6)).code == "production_limit"
    assert _error(state, 0, produce("red", "red", "red", "green", "green")).code == (
        "not_enough_discs"
    )
    assert _error(state, 1, produce(*["red"] * 5)).code == "production_limit"
    submit(state, (0, produce("red", "red", "green", "green", "blue")))
    submit(state, (1, produce("red", "red", "red", "red")))


def test_production_is_sealed_until_everyone_has_produced():
    state, events = submit(started(3), (1, produce("red", "blue")))
    assert events[0].visible_to == (1,)
    assert GAME.redact(events[0], 0) == {"seat": 1}
    assert GAME.redact(events[0], None) == {"seat": 1}
    assert "red" not in str(GAME.view(state, 0, "en")["your_submission"])
    assert GAME.view(state, 1, "en")["your_submission"] == {"goods": {"red": 1, "blue": 1}}
    assert GAME.ready(state) is None and sorted(o.seat for o in GAME.owed(state)) == [0, 2]


def test_produced_goods_stay_in_production_and_cannot_be_bid():
    state = arrange(started(3), rows=SPREAD)
    state, _ = act(state, (0, produce("red", "red", "red")), (1, produce()), (2, produce()))
    assert state.production[0][RED] == 3 and state.storage[0][RED] == 1
    state, _ = advance(state, BID)
    state = arrange(state, storage={0: {"green": 1}})
    assert state.production[0][RED] >= 1
    assert _error(state, 0, bid("red")).code == "insufficient_goods"


def test_exchange_values_stay_between_l1_and_l11():
    rows = {**SPREAD, "red": 1, "orange": 11}
    state = arrange(started(3), rows=rows)
    state, events = act(
        state,
        (0, produce("red", "red", "red")),
        (1, produce("red", "red", "red")),
        (2, produce("red", "red", "red")),
    )
    assert state.rows[RED] == 1 and state.rows[COLOURS.index("orange")] == 11
    moved = {d["colour"] for d in only(events, "ExchangeValueMoved")}
    assert "red" not in moved and "orange" not in moved


def test_every_colour_tied_for_the_lowest_value_gains_a_vp_step():
    rows = {**SPREAD, "red": 4, "yellow": 4}  # offers of 5: produce all of them
    state = arrange(started(3), rows=rows, steps={"red": 0, "yellow": 1})
    state, events = act(
        state,
        (0, produce("red", "red", "red", "yellow")),
        (1, produce("red", "red", "yellow", "yellow")),
        (2, produce("yellow", "yellow")),
    )
    raised = only(events, "LowestValueRaised")[0]
    assert raised == {"colours": ["red", "yellow"], "steps": {"red": 1, "yellow": 2}}


def test_production_beyond_the_supply_ends_the_game_at_once_before_distribution():
    state = arrange(started(3), rows=SPREAD, storage={0: {"red": 10}, 1: {"red": 5}})
    assert state.supply[RED] + state.offer[RED] == 1
    rows = state.rows
    state, events = act(state, (0, produce("red", "red")), (1, produce("green")), (2, produce()))
    assert names(events)[3:7] == [
        "ProductionRevealed",
        "SupplyExhausted",
        "OfferReturned",
        "GameEndTriggered",
    ]
    assert only(events, "GameEndTriggered")[0]["reason"] == "supply"
    assert not only(events, "GoodsProduced") and state.rows == rows
    assert state.phase == SELL and state.final and not any(map(sum, state.production))
    state, events = act(state, *((o.seat, o.default) for o in GAME.owed(state)))
    assert state.phase == OVER and names(events)[-1] == "GameScored"


def test_a_vp_value_reaching_seven_four_in_production_ends_the_game_at_once():
    state = arrange(started(3), rows=SPREAD, steps={"red": 6})
    state, events = act(state, *((s, produce()) for s in state.order))
    assert only(events, "LowestValueRaised")[0]["steps"] == {"red": 7}
    assert only(events, "GameEndTriggered") == [{"reason": "vp_track", "colours": ["red"]}]
    assert state.final and state.phase in (SELL, OVER) and not only(events, "TradeStarted")


def test_a_vp_value_reaching_seven_four_at_the_auction_ends_the_game_at_once():
    state, _ = advance(started(3), BID)
    state = arrange(state, storage={0: {"blue": 2}}, steps={"blue": 6}, card="notary")
    state, _ = act(state, (0, bid("blue")), (1, bid()), (2, bid()))
    state, events = act(state, (0, {"type": "raise", "colour": "blue"}))
    assert only(events, "VictoryValueRaised")[0]["step"] == 7
    assert only(events, "GameEndTriggered")[0]["reason"] == "vp_track"
    assert not only(events, "CardRevealed") and state.final


def test_the_round_of_the_last_card_keeps_its_sale_and_storage_limit_then_the_final_sale():
    state, _ = advance(started(3), BID)
    storage = {0: {"blue": 6, "red": 9}}
    state = arrange(state, storage=storage, rows={"blue": 9}, card="notary", deck=[])
    state, events = act(state, *((s, bid()) for s in state.order))
    assert only(events, "CardRemoved")[0]["reason"] == "no_bids"
    assert not only(events, "GameEndTriggered") and not only(events, "CardRevealed")
    assert only(events, "SaleOpened") == [{"final": False, "sellers": [0]}]
    sale = {"type": "sell", "vp": {**dict.fromkeys(COLOURS, 0), "blue": 1}}
    state, events = act(state, (0, sale))
    assert state.vp[0][BLUE] == 1 and "DiscardOpened" in names(events)
    state, events = act(state, (0, {"type": "discard", "goods": ["red"] * 3}))
    assert names(events)[:3] == ["GoodsDiscarded", "RoundEnded", "GameEndTriggered"]
    assert only(events, "GameEndTriggered") == [{"reason": "last_card", "colours": []}]
    assert only(events, "SaleOpened") == [{"final": True, "sellers": [0]}]
    default = GAME.owed(state)[0].default
    assert default["vp"]["blue"] == 2  # the four blue goods left still buy two VP at L9
    state, events = act(state, (0, default))
    assert state.phase == OVER and state.vp[0][BLUE] == 3
    assert "DiscardOpened" not in names(events) and "RoundEnded" not in names(events)


def test_a_normal_sale_defaults_to_selling_nothing():
    state, _ = advance(started(3), BID)
    state = arrange(state, storage={0: {"blue": 6}}, rows={"blue": 9}, card="notary")
    state, _ = act(state, *((s, bid()) for s in state.order))
    assert state.phase == SELL and not state.final
    assert GAME.owed(state)[0].default == {"type": "sell", "vp": dict.fromkeys(COLOURS, 0)}


def test_the_game_over_refuses_actions_and_final_is_entered_only_by_a_trigger():
    state = arrange(started(3), rows=SPREAD, steps={"red": 6})
    state, _ = act(state, *((s, produce()) for s in state.order))
    while state.phase != OVER:
        state, _ = act(state, *((o.seat, o.default) for o in GAME.owed(state)))
    assert _error(state, 0, produce()).code == "game_over"
    assert FINAL != PROPOSE  # FINAL is an automatic phase, never waited in

"""Black Market regulated trade (phase C) and giving back production goods at its end."""

from __future__ import annotations

import pytest

from games.base import RuleViolation
from games.black_market import GAME
from games.black_market.data import COLOURS
from games.black_market.state import ANSWER, BID, GIVE_BACK, PICK, PROPOSE
from games.rng import NoRng
from tests.games.black_market_table import (
    PASS,
    act,
    advance,
    answer,
    arrange,
    bid,
    only,
    produce,
    propose,
    started,
    submit,
)

RED, GREEN, BLUE = (COLOURS.index(c) for c in ("red", "green", "blue"))
SPREAD = {"red": 2, "yellow": 4, "green": 5, "blue": 6, "purple": 7, "orange": 8}


def _error(state, seat, action) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        GAME.decide(state, seat, action, NoRng())
    return err.value


def trading(players: int = 3, **facts):
    """Return a table at the first proposal of round 1, arranged with `facts`."""
    state = arrange(started(players), rows=SPREAD, **facts.pop("before", {}))
    state, events = act(state, *((s, produce()) for s in state.order))
    return arrange(state, **facts), events


def test_each_player_proposes_three_times_from_the_first_seat_round_the_table():
    state, events = trading(4)
    assert only(events, "TradeStarted") == [
        {"mode": "regulated", "starter": 0, "turns": [0, 1, 2, 3] * 3}
    ]
    assert state.phase == PROPOSE and [o.seat for o in GAME.owed(state)] == [0]
    assert GAME.owed(state)[0].default == PASS and not GAME.owed(state)[0].simultaneous


def test_only_players_able_to_meet_a_deal_answer_it_and_answers_are_sealed():
    state, _ = trading(storage={2: {"blue": 1}})
    state, events = submit(state, (0, propose(["red"], ["green"])))
    assert only(events, "DealProposed")[0]["answerers"] == [1]
    assert state.phase == ANSWER
    owed = GAME.owed(state)
    assert [(o.seat, o.simultaneous, o.default) for o in owed] == [
        (1, True, {"type": "answer", "accept": False})
    ]
    state, events = submit(state, (1, answer(True)))
    assert events[0].visible_to == (1,) and GAME.redact(events[0], 0) == {"seat": 1}
    assert GAME.ready(state) == "answer-r1-t0" and GAME.owed(state) == []


def test_one_acceptor_trades_at_once_and_each_side_gives_production_goods_first():
    storage = {0: {"red": 1}, 1: {"green": 2}, 2: {"blue": 1}}
    state, _ = trading(production={0: {"red": 1}}, storage=storage)
    state, events = act(state, (0, propose(["red", "red"], ["green"])), (1, answer(True)))
    made = only(events, "DealMade")[0]
    assert made["legs"] == [
        {"from": 0, "to": 1, "production": {"red": 1}, "storage": {"red": 1}, "into": "storage"},
        {"from": 1, "to": 0, "production": {}, "storage": {"green": 1}, "into": "storage"},
    ]
    assert state.storage[1][RED] == 2 and state.storage[0][GREEN] == 1
    assert state.production[0][RED] == 0 and state.phase == PROPOSE
    assert GAME.owed(state)[0].seat == 1  # the next player to the left


def test_goods_received_in_regulated_trade_can_be_traded_again():
    state, _ = trading(storage={0: {"red": 1}, 1: {"green": 1}, 2: {"blue": 1}})
    state, _ = act(state, (0, propose(["red"], ["green"])), (1, answer(True)))
    state, events = act(state, (1, propose(["red"], ["blue"])), (2, answer(True)))
    assert only(events, "DealMade") and state.storage[2][RED] == 1


def test_with_several_acceptors_the_proposer_picks_by_default_the_first_to_the_left():
    state, _ = trading()
    state, _ = act(state, (0, propose(["red"], ["green"])), (1, answer(True)), (2, answer(True)))
    assert state.phase == PICK and state.acceptors == (1, 2)
    owed = GAME.owed(state)[0]
    assert (owed.seat, owed.kind, owed.default) == (0, "pick", {"type": "pick", "seat": 1})
    assert _error(state, 0, {"type": "pick", "seat": 0}).code == "not_an_acceptor"
    state, events = act(state, (0, {"type": "pick", "seat": 2}))
    assert only(events, "DealMade")[0]["partner"] == 2


def test_a_deal_nobody_accepts_passes_the_turn_left():
    state, _ = trading()
    state, events = act(
        state, (0, propose(["red"], ["green"])), (1, answer(False)), (2, answer(False))
    )
    assert only(events, "DealRefused") == [{"seat": 0}]
    assert only(events, "AnswersRevealed")[0]["acceptors"] == []
    assert GAME.owed(state)[0].seat == 1


def test_a_deal_nobody_can_meet_is_refused_without_asking():
    state, _ = trading()
    state, events = act(state, (0, propose(["red"], ["green", "green", "green"])))
    assert only(events, "AnswersRevealed") == [{"answers": [], "acceptors": []}]
    assert GAME.owed(state)[0].seat == 1


def test_a_proposer_with_nothing_to_trade_passes_automatically():
    state, _ = trading(storage={1: {}})
    state, events = act(state, (0, PASS))
    assert only(events, "ProposalPassed") == [
        {"seat": 0, "forced": False},
        {"seat": 1, "forced": True},
    ]
    assert GAME.owed(state)[0].seat == 2


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (propose(["red", "red"], ["green"]), "insufficient_goods"),
        (propose([], ["green"]), "one_sided_deal"),
        (propose(["red"], []), "one_sided_deal"),
        ({"type": "pick", "seat": 1}, "action_not_allowed"),
    ],
)
def test_a_bad_proposal_is_refused(action, code):
    state, _ = trading()
    assert _error(state, 0, action).code == code


def test_a_regulated_deal_has_no_size_limit_beyond_what_the_players_hold():
    storage = {0: {"red": 6}, 1: {"green": 7}, 2: {"blue": 1}}
    state, _ = trading(storage=storage)
    deal = propose(["red"] * 6, ["green"] * 7)
    state, events = act(state, (0, deal), (1, answer(True)))
    assert only(events, "DealMade") and state.storage[1][RED] == 6
    assert state.storage[0][GREEN] == 7
    give = next(s for s in GAME.legal(state, 1) if s.type == "propose").schema
    assert give["properties"]["give"]["maxItems"] == sum(state.storage[1])


def test_the_street_stall_holder_proposes_once_more_after_the_third_round():
    state, events = trading(before={"cards": {2: ["street_stall"]}})
    assert only(events, "TradeStarted")[0]["turns"] == [0, 1, 2] * 3 + [2]


def test_the_last_buyer_starts_the_next_trade_and_without_a_buyer_the_starter_stays():
    state, _ = trading()
    state, _ = advance(state, BID)
    state = arrange(state, storage={2: {"blue": 1}}, card="notary")
    state, _ = act(state, (0, bid()), (1, bid()), (2, bid("blue")))
    state, _ = act(state, (2, PASS))
    state, events = advance(state, PROPOSE)
    assert only(events, "TradeStarted")[0]["turns"][:3] == [2, 0, 1]
    state, _ = advance(state, BID)
    state, events = advance(state, PROPOSE)
    assert only(events, "CardRemoved") and only(events, "TradeStarted")[0]["starter"] == 2


def test_half_the_goods_left_in_production_go_back_rounded_down():
    production = {0: {"red": 2, "green": 1}, 1: {"blue": 3}, 2: {"green": 1}}
    state, _ = trading(production=production)
    state, events = advance(state, GIVE_BACK)
    assert only(events, "GoodsGivenBack") == [{"seat": 1, "goods": {"blue": 1}, "forced": True}]
    assert only(events, "GiveBackOpened") == [{"seats": [0]}]
    owed = GAME.owed(state)
    assert [(o.seat, o.kind, o.default) for o in owed] == [
        (0, "give_back", {"type": "give_back", "goods": ["red"]})
    ]
    give_back = {"type": "give_back", "goods": ["green", "red"]}
    assert _error(state, 0, give_back).code == "wrong_number_of_goods"
    assert _error(state, 0, {"type": "give_back", "goods": ["blue"]}).code == ("insufficient_goods")
    supply = state.supply[GREEN]
    state, _ = submit(state, (0, {"type": "give_back", "goods": ["green"]}))
    assert state.production[0] == (2, 0, 0, 0, 0, 0) and state.supply[GREEN] == supply + 1
    assert state.production[2][GREEN] == 1  # one good is never halved
    state, events = act(state)
    assert state.phase == BID and only(events, "AuctionOpened")


def test_pickle_jars_give_back_one_good_fewer():
    production = {0: {"red": 2, "green": 2}, 1: {"blue": 3}}
    state, _ = trading(production=production, cards={0: ["pickle_jars"], 1: ["dry_cellar"]})
    state, events = advance(state, GIVE_BACK)
    assert only(events, "GiveBackOpened") == [{"seats": [0]}]
    assert GAME.owed(state)[0].default == {"type": "give_back", "goods": ["red"]}


def test_a_deal_side_is_not_capped_at_sixty_goods_only_by_what_its_player_holds():
    import jsonschema

    storage = {
        0: {"red": 18, "yellow": 18, "green": 18, "blue": 10},  # 64 goods (six players)
        1: {"purple": 18, "orange": 18, "blue": 8},
    }
    state, _ = trading(6, storage=storage)
    give = ["red"] * 18 + ["yellow"] * 18 + ["green"] * 18 + ["blue"] * 10
    deal = propose(give, ["purple"] * 18 + ["orange"] * 18 + ["blue"] * 8)
    spec = next(s for s in GAME.legal(state, 0) if s.type == "propose")
    assert spec.schema["properties"]["give"]["maxItems"] == sum(state.storage[0]) == 64
    jsonschema.validate(deal, spec.schema)
    state, events = act(state, (0, deal), (1, answer(True)))
    assert only(events, "DealMade") and state.storage[1][RED] == 18
    assert sum(state.storage[0]) == 44 and sum(state.storage[1]) == 64
    too_many = propose([*give, "red"], ["purple"])  # one more good than seat 0 holds
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(too_many, spec.schema)

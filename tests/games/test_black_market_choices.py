"""Black Market `legal` lists every deal as `choices` when there are at most 200, and every
listed choice of every action type is accepted."""

from __future__ import annotations

import random

import jsonschema

from games.black_market import GAME
from games.black_market.state import PROPOSE, WILD
from games.kit import MAX_CHOICES
from games.rng import NoRng
from tests.games.black_market_table import act, arrange, offer, produce, propose, started
from tests.games.playout import playout

SPREAD = {"red": 2, "yellow": 4, "green": 5, "blue": 6, "purple": 7, "orange": 8}


def _opened(trade: str, **facts):
    state = arrange(started(3, trade=trade), rows=SPREAD)
    state, _ = act(state, *((s, produce()) for s in state.order))
    return arrange(state, **facts)


def _choices(state, seat, kind):
    return next(s.choices for s in GAME.legal(state, seat) if s.type == kind)


def _as_set(deals):
    return {(d.get("to"), tuple(sorted(d["give"])), tuple(sorted(d["take"]))) for d in deals}


def test_a_proposer_with_few_goods_gets_every_deal_a_partner_could_meet():
    state = _opened(
        "regulated",
        storage={0: {"red": 1, "blue": 1}, 1: {"green": 2}, 2: {"green": 1, "yellow": 1}},
    )
    assert state.phase == PROPOSE
    listed = _choices(state, 0, "propose")
    gives = [["red"], ["blue"], ["red", "blue"]]
    takes = [["green"], ["yellow"], ["green", "green"], ["yellow", "green"]]
    assert len(listed) == 12
    assert _as_set(listed) == _as_set(propose(g, t) for g in gives for t in takes)
    assert propose(["red"], ["green", "green", "yellow"]) not in listed  # nobody holds it
    schema = next(s.schema for s in GAME.legal(state, 0) if s.type == "propose")
    for deal in listed:
        jsonschema.validate(deal, schema)
        GAME.decide(state, 0, deal, NoRng())


def test_a_wild_trader_with_few_goods_gets_every_offer_for_what_each_partner_holds():
    state = _opened("wild", storage={0: {"red": 2}, 1: {"green": 1}, 2: {"blue": 1, "yellow": 1}})
    assert state.phase == WILD
    listed = _choices(state, 0, "offer")
    gives = [["red"], ["red", "red"]]
    wanted = [(1, ["green"]), (2, ["yellow"]), (2, ["blue"]), (2, ["yellow", "blue"])]
    assert len(listed) == 8
    assert _as_set(listed) == _as_set(offer(to, g, t) for to, t in wanted for g in gives)
    assert {d["to"] for d in _choices(state, 1, "offer")} == {0, 2}
    for deal in listed:
        GAME.decide(state, 0, deal, NoRng())


def test_200_deals_are_listed_and_201_or_more_are_not_even_for_a_rich_seat():
    at_most = {0: {"red": 4}, 1: {"yellow": 2, "green": 16}, 2: {}}  # 4 gives x 50 takes
    listed = _choices(_opened("regulated", storage=at_most), 0, "propose")
    assert len(listed) == MAX_CHOICES == len(_as_set(listed))
    over = {**at_most, 0: {"red": 5}}
    assert _choices(_opened("regulated", storage=over), 0, "propose") is None
    assert _choices(_opened("wild", storage=at_most), 0, "offer") == [
        {**deal, "type": "offer", "to": 1} for deal in listed
    ]
    assert _choices(_opened("wild", storage=over), 0, "offer") is None
    rich = {0: {c: 8 for c in SPREAD}, 1: {c: 8 for c in SPREAD}, 2: {"blue": 1}}
    assert _choices(_opened("regulated", storage=rich), 0, "propose") is None  # 9**6 - 1 gives
    assert _choices(_opened("wild", storage=rich), 2, "offer") is None


def _shrunk(state, pick: random.Random):
    """Return `state` with every seat holding a few goods of up to two colours."""
    colours = list(SPREAD)

    def few():
        return {c: pick.randint(0, 2) for c in pick.sample(colours, pick.randint(0, 2))}

    try:
        return arrange(state, storage={s: few() for s in state.order})
    except AssertionError:  # more cubes than exist: keep the table as it was
        return state


def test_every_listed_choice_of_every_action_in_random_playout_states_is_accepted():
    listed = {"propose": 0, "offer": 0}
    pick = random.Random(17)

    def check_all(state):
        for o in GAME.owed(state):
            for spec in GAME.legal(state, o.seat):
                assert spec.choices is None or 0 < len(spec.choices) <= MAX_CHOICES
                validator = jsonschema.Draft202012Validator(spec.schema)
                for choice in spec.choices or ():
                    validator.validate(choice)
                    GAME.decide(state, o.seat, choice, NoRng())
                if spec.type in listed and spec.choices:
                    listed[spec.type] += 1

    def check(run):
        state = run.state
        if GAME.is_over(state) or GAME.ready(state) is not None:
            return
        check_all(state)
        if state.phase in (PROPOSE, WILD):  # the same table with fewer goods in hand
            check_all(_shrunk(state, pick))

    for seed in range(8):
        trade = ("regulated", "wild")[seed % 2]
        playout(GAME, 3 + seed % 4, 900 + seed, {"trade": trade}, after_each=check)
    assert listed["propose"] > 20 and listed["offer"] > 20

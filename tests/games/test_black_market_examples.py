"""The rulebook's worked examples, played as scenarios."""

from __future__ import annotations

from games.black_market import GAME
from games.black_market.data import COLOURS
from games.black_market.scoring import colour_bonus, scores
from games.black_market.state import BID, PROPOSE, RAISE, SELL
from games.rng import NoRng
from tests.games.black_market_table import (
    act,
    advance,
    arrange,
    bid,
    fold,
    only,
    produce,
    sell,
    started,
    submit,
)

KIM, KEN, REY = 0, 1, 2
RED, GREEN = COLOURS.index("red"), COLOURS.index("green")
# Diagram 2 for red and green; the other colours sit where none of them ends lowest.
DIAGRAM_2 = {"red": 5, "green": 3, "yellow": 4, "blue": 6, "purple": 7, "orange": 2}


def test_producing_three_red_and_seven_green_moves_red_up_one_and_green_down_two():
    state = arrange(started(4), rows=DIAGRAM_2)
    assert state.offer[RED] == 4 and state.offer[GREEN] == 5
    state, events = act(
        state,
        (0, produce("green", "red", "red", "blue")),  # player A of the example
        (1, produce("yellow", "yellow", "green", "green")),  # player B
        (2, produce("red", "green", "green", "green")),
        (3, produce("green")),
    )
    produced = {d["colour"]: d for d in only(events, "GoodsProduced")}
    assert produced["red"]["from_offer"] == 3 and produced["red"]["left"] == 1
    assert produced["green"]["from_offer"] == 5 and produced["green"]["from_supply"] == 2
    assert state.rows[RED] == 6 and state.rows[GREEN] == 1  # diagram 4
    assert only(events, "LowestValueRaised") == [{"colours": ["green"], "steps": {"green": 1}}]
    assert state.production[0][RED] == 2 and state.production[2][GREEN] == 3
    assert state.supply[GREEN] == 14 - 7 and state.phase == PROPOSE


def _auction(kim: list[str]):
    state, _ = advance(started(3), BID)
    state = arrange(
        state,
        rows={"red": 6, "green": 1},
        storage={KIM: {"red": 4}, KEN: {"green": 4}, REY: {"blue": 1}},
        card="grannys_basement",
    )
    return act(
        state, (KIM, bid(*kim)), (KEN, bid("green", "green", "green", "green")), (REY, bid())
    )


def test_four_green_beat_three_red_and_the_buyer_pays_into_the_supply():
    state, events = _auction(["red"] * 3)
    assert only(events, "AuctionWon") == [
        {
            "seat": KEN,
            "card": "grannys_basement",
            "colour": "green",
            "count": 4,
            "by": "most_goods",
        }
    ]
    assert state.cards[KEN] == ("grannys_basement",) and state.storage[KEN][GREEN] == 0
    assert state.storage[KIM][RED] == 4  # Kim keeps his red goods
    assert state.phase == RAISE and [o.seat for o in GAME.owed(state)] == [KEN]
    state, events = act(state, (KEN, {"type": "raise", "colour": "red"}))
    assert only(events, "VictoryValueRaised")[0]["colour"] == "red"


def test_four_red_would_have_won_on_the_higher_exchange_value():
    state, events = _auction(["red"] * 4)
    won = only(events, "AuctionWon")[0]
    assert (won["seat"], won["by"]) == (KIM, "exchange_value")


def test_selling_six_red_at_l6_brings_two_vp_and_two_cubes_stay_on_the_vp_space():
    state, _ = advance(started(3), BID)
    state = arrange(
        state, rows={"red": 6}, storage={KIM: {"red": 6}}, card="notary", deck=["dry_cellar"]
    )
    state, _ = act(state, *((s, bid()) for s in state.order))
    assert state.phase == SELL and state.expected == (KIM,)
    supply = state.supply[RED]
    state, events = submit(state, (KIM, sell(red=2)))
    events = GAME.resolve(state, NoRng())
    sold = next(i for i, e in enumerate(events) if e.type.endswith(".GoodsSold"))
    assert events[sold].data == {"seat": KIM, "vp": {"red": 2}, "cubes": {"red": 6}}
    state = fold(events[: sold + 1], state)
    assert state.vp[KIM][RED] == 2 and state.storage[KIM][RED] == 0
    assert state.supply[RED] == supply + 4


def test_three_four_and_seven_red_at_six_three_score_three_seven_and_thirteen():
    assert colour_bonus([3, 4, 7], 6, 3) == [0, 3, 6]
    state = arrange(
        started(3), steps={"red": 6}, vp={KIM: {"red": 3}, KEN: {"red": 4}, REY: {"red": 7}}
    )
    red = {s.seat: s.by_colour[RED] for s in scores(state)}
    assert red == {KIM: 3, KEN: 7, REY: 13}

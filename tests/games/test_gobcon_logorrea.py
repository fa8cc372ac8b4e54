"""GobCon rules that hold at every moment: Logorrea-Man without Items, the goal at setup."""

from __future__ import annotations

from games.gobcon import GAME
from games.gobcon.cards import default_deck
from games.rng import Rng
from tests.games.gobcon_table import act, names, only, start_turn, table

SEED_DEALING_LOGORREA = b"lm-39"  # with three players, this seed deals Logorrea-Man


def test_logorrea_man_dealt_at_setup_is_discarded_at_once_as_nobody_has_items():
    events = GAME.setup({}, (0, 1, 2), Rng(SEED_DEALING_LOGORREA))
    assert names(events)[5:8] == ["LogorreaPlayed", "LogorreaLeft", "TurnStarted"]
    played, left = only(events, "LogorreaPlayed")[0], only(events, "LogorreaLeft")[0]
    assert left == {"seat": played["seat"], "card": "logorrea-man#1", "reason": "no_items"}
    state = None
    for ev in events:
        state = GAME.evolve(state, ev)
    assert state.friends == (None, None, None) and "logorrea-man#1" in state.discard
    assert len(state.hands[played["seat"]]) == 4


def test_logorrea_man_drawn_while_nobody_has_items_is_discarded_at_once():
    state = table(
        players=3, friends={1: "the-referee#1"}, draw_top=["fan-club#1", "logorrea-man#1"]
    )
    state, events = start_turn(state, 1)
    assert names(events)[:4] == ["TurnStarted", "CardsDrawn", "LogorreaPlayed", "LogorreaLeft"]
    assert only(events, "LogorreaPlayed")[0]["replaced"] == "the-referee#1"
    assert state.friends == (None, None, None) and len(state.hands[1]) == 5
    assert {"logorrea-man#1", "the-referee#1"} <= set(state.discard)
    assert state.phase == "play" and "LogorreaPassed" not in names(events)


def test_logorrea_man_drawn_by_a_player_without_items_is_handed_on_at_once():
    state = table(players=3, items={2: ["dice-bag#1"]}, draw_top=["fan-club#1", "logorrea-man#1"])
    state, events = start_turn(state, 1)
    assert names(events)[:4] == ["TurnStarted", "CardsDrawn", "LogorreaPlayed", "LogorreaPassed"]
    assert only(events, "LogorreaPassed")[0] == {
        "seat": 1,
        "to": 2,
        "card": "logorrea-man#1",
        "replaced": None,
    }
    # the drawer goes on drawing and plays its turn without Logorrea-Man: it may buy an Item
    assert state.friends[1] is None and state.friends[2] == "logorrea-man#1"
    assert state.phase == "play" and state.active == 1 and len(state.hands[1]) == 5
    assert state.items[2] == ("dice-bag#1",)


def test_logorrea_man_drawn_without_items_goes_to_the_drawers_choice_among_item_holders():
    items = {0: ["dice-bag#1"], 2: ["card-sleeves#1"]}
    state = table(players=3, items=items, draw_top=["logorrea-man#1"])
    state, events = start_turn(state, 1)
    assert names(events)[-1] == "LogorreaPlayed" and state.phase == "lm_pass"
    [decision] = GAME.owed(state)
    assert (decision.seat, decision.kind, decision.default) == (
        1,
        "give",
        {"type": "give", "seat": 2},
    )
    state, events = act(state, (1, {"type": "give", "seat": 0}))
    assert only(events, "LogorreaPassed")[0]["to"] == 0 and state.friends[0] == "logorrea-man#1"
    assert state.active == 1 and state.phase == "play"


def test_logorrea_man_drawn_by_a_player_with_items_stays_with_its_drawer():
    items = {1: ["dice-bag#1"], 2: ["card-sleeves#1"]}
    state = table(players=3, items=items, draw_top=["logorrea-man#1"])
    state, events = start_turn(state, 1)
    assert "LogorreaPassed" not in names(events) and state.friends[1] == "logorrea-man#1"


def test_a_score_at_the_goal_during_setup_ends_the_game_at_once():
    deck = default_deck()
    talker = next(c for c in deck["cards"] if c["id"] == "logorrea-man")
    talker["gp"] = 25  # an operator's deck: a Logorrea-Man worth more than the goal
    events = GAME.setup({"deck": deck}, (0, 1, 2), Rng(SEED_DEALING_LOGORREA))
    assert names(events)[5:] == ["LogorreaPlayed", "GameFinished"]
    finished = only(events, "GameFinished")[0]
    seat = only(events, "LogorreaPlayed")[0]["seat"]
    assert finished["reason"] == "goal" and finished["winners"] == [seat]

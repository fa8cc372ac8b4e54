"""GobCon turns: drawing, the one-per-colour limit, Friends, Logorrea-Man, discards, the end."""

from __future__ import annotations

import pytest

from games.base import RuleViolation
from games.gobcon import GAME
from games.gobcon.scoring import score
from games.rng import NoRng, Rng
from tests.games.gobcon_table import END, PASS, act, close, names, only, play, start_turn, table


def _error(state, seat, action) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        GAME.decide(state, seat, action, NoRng())
    return err.value


def test_setup_deals_five_cards_each_in_secret_and_opens_the_first_players_turn():
    events = GAME.setup({}, (2, 0, 1), Rng(b"setup"))
    assert names(events)[:5] == ["GameStarted", "DeckShuffled", *["CardsDealt"] * 3]
    dealt = only(events, "CardsDealt")
    assert [d["seat"] for d in dealt] == [2, 0, 1] and all(len(d["cards"]) == 5 for d in dealt)
    assert [e.visible_to for e in events[2:5]] == [(2,), (0,), (1,)]
    assert events[1].visible_to == () and GAME.redact(events[1], 0) == {"size": 117}
    assert GAME.redact(events[2], 0) == {"seat": 2, "count": 5}
    state = None
    for ev in events:
        state = GAME.evolve(state, ev)
    assert only(events, "TurnStarted")[0] == {"seat": 2, "turn": 1, "round": 1}
    assert GAME.owed(state)[0].seat == 2 and GAME.owed(state)[0].kind == "turn"


def test_a_turn_starts_by_drawing_back_up_to_five():
    state = table(hands={1: ["dice-bag#1", "fan-club#1"]}, draw_top=["army-box#1", "skirmish#1"])
    state, events = start_turn(state, 1)
    drawn = only(events, "CardsDrawn")[0]
    assert drawn["seat"] == 1 and drawn["cards"][:2] == ["army-box#1", "skirmish#1"]
    assert len(state.hands[1]) == 5 and state.phase == "play"


def test_a_player_with_five_cards_draws_nothing():
    hand = ["dice-bag#1", "dice-bag#2", "dice-bag#3", "dice-bag#4", "fan-club#1"]
    state = table(hands={1: hand})
    state, events = start_turn(state, 1)
    assert "CardsDrawn" not in names(events)


def test_an_empty_deck_is_replaced_by_the_shuffled_discard_pile():
    state = table(hands={1: ["fan-club#1"]}, draw_top=["dice-bag#2", "dice-bag#3"], draw_size=2)
    assert len(state.discard) == 114
    discarded = set(state.discard)
    state, events = start_turn(state, 1, Rng(b"reshuffle"))
    assert names(events)[:4] == ["TurnStarted", "CardsDrawn", "DiscardReshuffled", "CardsDrawn"]
    assert only(events, "CardsDrawn")[0]["cards"] == ["dice-bag#2", "dice-bag#3"]
    shuffled = events[2]
    assert shuffled.visible_to == () and GAME.redact(shuffled, 0) == {"size": 114}
    assert set(shuffled.data["deck"]) == discarded and len(shuffled.data["deck"]) == 114
    assert len(state.hands[1]) == 5 and len(state.draw) == 112 and state.discard == ()


def test_with_the_empty_deck_option_drawing_the_last_card_ends_the_game():
    state = table(
        hands={1: ["fan-club#1"]},
        items={0: ["army-box#1"]},
        draw_size=2,
        options={"end_on_empty_deck": True},
    )
    state, events = start_turn(state, 1)
    assert names(events)[-2:] == ["CardsDrawn", "GameFinished"]
    assert only(events, "GameFinished")[0]["reason"] == "deck_empty"
    assert GAME.is_over(state) and GAME.result(state).winners == (0,)
    assert _error(state, 1, END).code == "game_over"


def test_one_friend_one_item_one_game_but_any_number_of_specials_per_turn():
    state = table(
        hands={0: ["dice-bag#1", "dice-bag#2", "fan-club#1", "good-impression#1", "the-dealer#1"]}
    )
    state, _ = act(
        state,
        (0, play("dice-bag#1")),
        (0, play("fan-club#1")),
        (0, play("good-impression#1")),
        (0, play("the-dealer#1")),
    )
    assert _error(state, 0, play("dice-bag#2")).code == "limit_reached"
    assert score(state, 0) == 1 + 2 + 1 + 1


def test_a_new_friend_replaces_the_old_one_and_a_friend_may_be_dismissed():
    state = table(hands={0: ["the-referee#1"]}, friends={0: "the-dealer#1"})
    state, events = act(state, (0, play("the-referee#1")))
    assert only(events, "FriendJoined")[0]["replaced"] == "the-dealer#1"
    assert state.friends[0] == "the-referee#1" and "the-dealer#1" in state.discard
    state, events = act(state, (0, {"type": "dismiss_friend"}))
    assert state.friends[0] is None and score(state, 0) == 0
    assert _error(state, 0, {"type": "dismiss_friend"}).code == "no_friend"


def test_discarding_ends_the_play_step_and_end_turn_passes_to_the_left():
    state = table(players=3, hands={0: ["dice-bag#1", "fan-club#1"]})
    state, _ = act(state, (0, {"type": "discard", "card": "fan-club#1"}))
    assert state.phase == "discard" and "fan-club#1" in state.discard
    err = _error(state, 0, play("dice-bag#1"))
    assert err.code == "action_not_allowed"
    assert [s.type for s in GAME.legal(state, 0)] == ["discard", "end_turn"]
    state, events = act(state, (0, END))
    assert only(events, "TurnStarted")[0]["seat"] == 1


# Logorrea-Man


def test_logorrea_man_is_played_the_moment_it_is_drawn_replacing_a_friend():
    state = table(
        hands={1: ["dice-bag#1"]},
        friends={1: "the-referee#1"},
        items={0: ["dice-bag#2"], 1: ["army-box#1"]},
        draw_top=["logorrea-man#1"],
    )
    state, events = start_turn(state, 1)
    assert names(events)[:3] == ["TurnStarted", "CardsDrawn", "LogorreaPlayed"]
    assert only(events, "LogorreaPlayed")[0]["replaced"] == "the-referee#1"
    assert state.friends[1] == "logorrea-man#1" and len(state.hands[1]) == 5
    assert "logorrea-man#1" not in state.hands[1]


def test_logorrea_man_blocks_other_friends():
    state = table(hands={0: ["the-referee#1"]}, friends={0: "logorrea-man#1"})
    assert _error(state, 0, play("the-referee#1")).code == "logorrea_blocks_friends"
    assert _error(state, 0, {"type": "dismiss_friend"}).code == "logorrea_stays"


def test_logorrea_man_takes_an_item_at_the_start_of_each_of_its_owners_turns():
    state = table(
        players=3,
        friends={1: "logorrea-man#1"},
        items={1: ["army-box#1", "dice-bag#1"], 2: ["dice-bag#2"]},
    )
    state, _ = start_turn(state, 1)
    owed = GAME.owed(state)[0]
    assert (owed.kind, owed.default) == ("lose_item", {"type": "lose_item", "card": "dice-bag#1"})
    state, events = act(state, (1, {"type": "lose_item", "card": "army-box#1"}))
    assert state.items[1] == ("dice-bag#1",) and state.friends[1] == "logorrea-man#1"


def test_logorrea_man_passes_to_an_opponent_with_items_when_its_owner_has_none_left():
    state = table(
        players=3,
        friends={1: "logorrea-man#1", 2: "the-dealer#1"},
        items={1: ["dice-bag#1"], 2: ["dice-bag#2"]},
    )
    state, events = start_turn(state, 1)
    assert names(events)[:3] == ["TurnStarted", "ItemLost", "LogorreaPassed"]
    assert only(events, "LogorreaPassed")[0] == {
        "seat": 1,
        "to": 2,
        "card": "logorrea-man#1",
        "replaced": "the-dealer#1",
    }
    assert state.friends == (None, None, "logorrea-man#1")


def test_its_owner_chooses_who_gets_logorrea_man_among_players_with_items():
    items = {0: ["dice-bag#3"], 1: ["dice-bag#1"], 2: ["dice-bag#2"]}
    state = table(players=3, friends={0: "logorrea-man#1"}, items=items)
    state, _ = start_turn(state, 0)
    owed = GAME.owed(state)[0]
    assert (owed.kind, owed.default) == ("give", {"type": "give", "seat": 1})
    assert _error(state, 0, {"type": "give", "seat": 0}).code == "bad_target"
    state, _ = act(state, (0, {"type": "give", "seat": 2}))
    assert state.friends[2] == "logorrea-man#1" and state.phase == "play"


def test_logorrea_man_leaves_play_when_nobody_has_items():
    state = table(players=3, friends={0: "logorrea-man#1"}, items={0: ["dice-bag#1"]})
    state, events = start_turn(state, 0)
    assert only(events, "LogorreaLeft") == [
        {"seat": 0, "card": "logorrea-man#1", "reason": "no_items"}
    ]
    assert state.friends[0] is None and "logorrea-man#1" in state.discard


def test_a_special_sends_logorrea_man_away():
    state = table(hands={0: ["shut-up-logorrea-man#1"]}, friends={1: "logorrea-man#1"})
    state, events = act(state, (0, play("shut-up-logorrea-man#1")))
    assert only(events, "LogorreaLeft")[0]["reason"] == "removed"
    assert state.friends[1] is None


# The end


def test_the_game_ends_as_soon_as_a_score_reaches_the_goal():
    state = table(hands={0: ["star-guest#1"]}, counters={0: 18, 1: 4}, options={"goal": 21})
    state, events = act(state, (0, play("star-guest#1")))
    assert names(events)[-1] == "GameFinished"
    assert only(events, "GameFinished")[0] == {
        "reason": "goal",
        "scores": [
            {"seat": 0, "score": 21, "counters": 18},
            {"seat": 1, "score": 4, "counters": 4},
        ],
        "winners": [0],
    }
    result = GAME.result(state)
    assert [(s.seat, s.score, s.place) for s in result.standings] == [(0, 21, 1), (1, 4, 2)]


def test_with_a_time_limit_the_game_ends_after_the_last_turn_of_the_last_round():
    state = table(players=3, counters={2: 3}, options={"time_limit": 2})
    from dataclasses import replace

    state = replace(state, turn=5, active=1)
    state, events = act(state, (1, END))
    assert only(events, "TurnStarted")[0] == {"seat": 2, "turn": 6, "round": 2}
    state, events = act(state, (2, END))
    assert names(events) == ["TurnEnded", "GameFinished"]
    assert only(events, "GameFinished")[0]["reason"] == "time_limit"
    assert GAME.result(state).winners == (2,)


def test_tied_players_share_the_win():
    from dataclasses import replace

    state = replace(table(players=3, counters={0: 2, 1: 2}, options={"time_limit": 1}), turn=3)
    state, _ = act(state, (0, END))
    result = GAME.result(state)
    assert result.winners == (0, 1) and [s.place for s in result.standings] == [1, 1, 3]


def test_a_window_answer_seals_the_seat_and_a_second_answer_is_refused():
    state = table(players=3, hands={0: ["dice-bag#1"], 1: ["fan-club#1"], 2: ["not-so-fast#1"]})
    state, _ = act(state, (0, play("dice-bag#1")), (1, PASS))
    assert _error(state, 1, PASS).code == "already_submitted"
    state, _ = act(state, (2, PASS))
    state, _ = close(state)
    assert _error(state, 1, PASS).code == "phase_closed"

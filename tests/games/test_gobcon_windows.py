"""GobCon reaction windows: chained answers, any-time cards at every public step, sealed
answers that go back unnamed, and windows skipped when nobody could answer them."""

from __future__ import annotations

import json

import pytest

from games.base import ALL, RuleViolation
from games.gobcon import GAME
from games.rng import NoRng
from tests.games.gobcon_table import (
    DECLINE,
    END,
    JOIN,
    PASS,
    ROLL,
    Dice,
    act,
    close,
    names,
    only,
    play,
    respond,
    table,
    target,
)


def test_a_cancel_may_be_cancelled_in_a_window_of_its_own_and_the_play_then_stands():
    state = table(
        players=3,
        hands={0: ["army-box#1", "not-so-fast#2"], 1: ["not-so-fast#1"], 2: ["fan-club#1"]},
    )
    state, _ = act(state, (0, play("army-box#1")), (1, respond("not-so-fast#1")), (2, PASS))
    state, events = close(state)
    assert names(events) == ["ResponsesRevealed", "ResponsePlayed", "WindowOpened"]
    opened = only(events, "WindowOpened")[0]
    assert (opened["card"], opened["step"], opened["responders"]) == (
        "not-so-fast#1",
        "answer",
        [2, 0],
    )
    state, _ = act(state, (0, respond("not-so-fast#2")), (2, PASS))
    state, events = close(state)
    assert only(events, "PlayCancelled") == [
        {"seat": 1, "card": "not-so-fast#1", "by": 0, "cancel": "not-so-fast#2"}
    ]
    assert names(events)[-3:] == ["WindowClosed", "WindowClosed", "ItemBought"]
    assert state.items[0] == ("army-box#1",) and state.chain == ()
    assert {"not-so-fast#1", "not-so-fast#2"} <= set(state.discard)


def test_windows_chain_until_nobody_answers_and_the_last_cancel_decides():
    state = table(hands={0: ["army-box#1", "not-so-fast#2"], 1: ["not-so-fast#1", "not-so-fast#3"]})
    state, _ = act(state, (0, play("army-box#1")), (1, respond("not-so-fast#1")))
    state, _ = close(state)
    state, _ = act(state, (0, respond("not-so-fast#2")))
    state, _ = close(state)
    assert [link.card for link in state.chain] == ["army-box#1", "not-so-fast#1", "not-so-fast#2"]
    state, _ = act(state, (1, respond("not-so-fast#3")))
    state, events = close(state)  # seat 0 has no card left: nobody can answer the third cancel
    assert [(c["card"], c["by"]) for c in only(events, "PlayCancelled")] == [
        ("not-so-fast#2", 1),
        ("army-box#1", 1),
    ]
    assert state.items[0] == () and state.used == () and state.phase == "play"


def test_an_any_time_malus_answering_an_item_may_itself_be_cancelled():
    state = table(hands={0: ["dice-bag#1", "not-so-fast#1"], 1: ["glue-on-fingers#1"]})
    state, _ = act(state, (0, play("dice-bag#1")), (1, respond("glue-on-fingers#1")))
    state, events = close(state)
    assert only(events, "WindowOpened")[0]["card"] == "glue-on-fingers#1"
    state, _ = act(state, (0, respond("not-so-fast#1")))
    state, events = close(state)
    assert only(events, "PlayCancelled")[0]["card"] == "glue-on-fingers#1"
    assert state.specials[0] == () and state.items[0] == ("dice-bag#1",)


def test_a_sealed_answer_with_nothing_left_to_cancel_goes_back_without_being_named():
    state = table(
        players=3,
        hands={0: ["dice-bag#1"], 1: ["not-so-fast#1"], 2: ["not-so-fast#2", "fan-club#1"]},
    )
    state, events = act(
        state, (0, play("dice-bag#1")), (2, respond("not-so-fast#2")), (1, respond("not-so-fast#1"))
    )
    state, more = close(state)
    events += more
    assert only(more, "PlayCancelled")[0]["by"] == 1  # the first answer from the player's left
    assert "ResponseReturned" not in names(more) and state.chain == ()
    assert state.hands[2] == ("not-so-fast#2", "fan-club#1")
    for seat in (0, 1, None):
        seen = [
            ev.data if ev.visible_to == ALL or seat in ev.visible_to else GAME.redact(ev, seat)
            for ev in events
        ]
        assert "not-so-fast#2" not in json.dumps(seen) + json.dumps(GAME.view(state, seat, "en"))
    assert GAME.view(state, None, "en")["players"][2]["hand_size"] == 2


def test_aex_equo_may_be_played_before_a_roll_after_a_king_was_rolled():
    state = table(players=3, hands={0: ["skirmish#1"], 2: ["aex-equo#1"]})
    state, _ = act(state, (0, play("skirmish#1")), (2, PASS))
    state, _ = close(state)
    state, _ = act(state, (1, DECLINE), (2, JOIN))
    state, events = close(state)
    assert only(events, "WindowOpened")[0]["step"] == "roll"  # before the first roll
    state, _ = act(state, (2, PASS))
    state, _ = close(state)
    state, events = act(state, (0, ROLL), rng=Dice(6))
    assert only(events, "DieRolled")[0]["result"] == "king"
    assert only(events, "WindowOpened") == [
        {"seat": None, "card": None, "target": None, "step": "roll", "responders": [2]}
    ]
    state, _ = act(state, (2, respond("aex-equo#1")))
    state, events = close(state)
    assert only(events, "ResponseResolved") == [{"seat": 2, "card": "aex-equo#1", "target": 2}]
    assert state.phase == "roll" and GAME.owed(state)[0].seat == 2
    state, events = act(state, (2, ROLL), rng=Dice(6))
    assert only(events, "DieRolled")[0]["notes"] == ["aex_equo"]
    assert only(events, "GameClosed")[0]["discarded"] == ["aex-equo#1"]


def test_a_turn_where_the_active_player_plays_nothing_still_opens_a_window_at_its_end():
    state = table(players=3, hands={0: ["dice-bag#1"], 2: ["marked-cards#1"]})
    state, events = act(state, (0, END))
    assert names(events) == ["TurnEnded", "WindowOpened"]
    assert only(events, "WindowOpened")[0]["step"] == "turn_end"
    assert only(events, "WindowOpened")[0]["responders"] == [0, 2]  # every seat holding cards
    state, _ = act(state, (0, PASS), (2, respond("marked-cards#1")))
    state, events = close(state)
    assert only(events, "ResponsePlayed")[0]["aim"] is True
    assert GAME.owed(state)[0].seat == 2 and GAME.owed(state)[0].default == target(0)
    state, events = act(state, (2, target(1)))  # an off-turn malus may land on any opponent
    assert state.specials[1] == ("marked-cards#1",)
    assert names(events)[:4] == ["TargetChosen", "ResponseResolved", "WindowClosed", "TurnStarted"]
    assert only(events, "TurnStarted")[0]["seat"] == 1


def test_an_any_time_malus_answering_a_play_may_target_another_player():
    state = table(players=3, hands={0: ["skirmish#1"], 2: ["marked-cards#1"]})
    state, _ = act(state, (0, play("skirmish#1")), (2, respond("marked-cards#1")))
    state, _ = close(state)
    assert GAME.owed(state)[0].default == target(0)  # by default the player it answers
    state, _ = act(state, (2, target(1)))
    assert state.specials[1] == ("marked-cards#1",) and state.phase == "join"


def test_windows_nobody_could_answer_are_skipped_and_an_open_one_is_offered_to_all():
    state = table(hands={0: ["dice-bag#1", "skirmish#1"], 1: ["fan-club#1"]})
    state, events = act(state, (0, play("dice-bag#1")))  # only your-turn cards in other hands
    assert "WindowOpened" not in names(events) and state.items[0] == ("dice-bag#1",)
    state, events = act(state, (0, play("skirmish#1")), (1, JOIN))
    state, events = close(state)
    state, events = act(state, (0, ROLL), (1, ROLL), rng=Dice(4, 4))
    state, events = act(state, (0, END))
    assert "WindowOpened" not in names(events)  # no roll window, no turn-end window
    state = table(players=3, hands={0: ["dice-bag#1"], 1: ["fan-club#1"], 2: ["not-so-fast#1"]})
    state, events = act(state, (0, play("dice-bag#1")))
    assert only(events, "WindowOpened")[0]["responders"] == [1, 2]  # seat 1 too: it reveals nothing


def test_a_card_promised_as_an_answer_below_cannot_answer_again_above():
    state = table(
        players=3,
        hands={0: ["dice-bag#1"], 1: ["not-so-fast#1"], 2: ["not-so-fast#2", "not-so-fast#3"]},
    )
    state, _ = act(
        state,
        (0, play("dice-bag#1")),
        (1, respond("not-so-fast#1")),
        (2, respond("not-so-fast#2")),
    )
    state, _ = close(state)
    assert state.window.responders == (2,)  # seat 2 still holds a free cancel
    with pytest.raises(RuleViolation) as err:
        GAME.decide(state, 2, respond("not-so-fast#2"), NoRng())
    assert (err.value.code, err.value.field) == ("card_committed", "card")
    answers = next(s for s in GAME.legal(state, 2) if s.type == "respond")
    assert answers.choices == [respond("not-so-fast#3")]

"""GobCon Games: goblin faces, dice steps, one King per Game, Aex Equo, Darth, the GP floor."""

from __future__ import annotations

from games.gobcon import GAME
from games.gobcon.scoring import score
from games.gobcon.state import PLAY
from games.rng import Rng
from tests.games.gobcon_table import (
    DECLINE,
    JOIN,
    ROLL,
    Dice,
    act,
    close,
    names,
    only,
    play,
    table,
)

# Skirmish (3D) pays King 3, Green 1, Black 0, Darth -1; Painting Contest (3D) 6/2/-2/-3.


def _rolls(state, *dice, joins=(JOIN,)):
    """Seat 0 plays the Game in its hand, the others answer `joins`, then everyone rolls."""
    state, _ = act(state, (0, play(state.hands[0][0])))
    moves = [(seat, joins[i]) for i, seat in enumerate(state.contest.eligible)]
    state, _ = act(state, *moves)
    state, _ = close(state)
    out = []
    rng = Dice(*dice)
    while state.phase == "roll":
        seat = GAME.owed(state)[0].seat
        state, events = act(state, (seat, ROLL), rng=rng)
        out += only(events, "DieRolled")
    return state, out


def test_green_plus_one_step_counts_as_king_and_green_minus_one_as_black():
    state = table(
        hands={0: ["skirmish#1"]},
        specials={0: ["steady-hands#1"], 1: ["glue-on-fingers#1"]},
    )
    state, rolls = _rolls(state, 4, 5)
    assert [(r["seat"], r["face"], r["modifier"], r["result"]) for r in rolls] == [
        (0, "green", 1, "king"),
        (1, "green", -1, "black"),
    ]
    assert state.counters == (3, 0)


def test_bonuses_add_up_and_stop_at_king():
    state = table(
        friends={0: "the-painter#1"},
        hands={0: ["skirmish#1"]},
        specials={0: ["steady-hands#1", "steady-hands#2"]},
    )
    state, rolls = _rolls(state, 2, 6, joins=(DECLINE,))
    assert rolls[0]["modifier"] == 3 and rolls[0]["result"] == "king"


def test_only_the_first_king_of_a_game_counts_as_king():
    state = table(players=3, hands={0: ["skirmish#1"]})
    state, rolls = _rolls(state, 6, 6, 6, joins=(JOIN, JOIN))
    assert [r["result"] for r in rolls] == ["king", "green", "green"]
    assert rolls[1]["notes"] == ["second_king_counts_as_green"]
    assert state.counters == (3, 1, 1)


def test_aex_equo_lets_every_king_count_and_is_discarded_after_the_game():
    state = table(players=3, hands={0: ["skirmish#1"]}, specials={2: ["aex-equo#1"]})
    state, rolls = _rolls(state, 6, 6, 4, joins=(JOIN, JOIN))
    assert [r["result"] for r in rolls] == ["king", "king", "green"]
    assert "aex_equo" in rolls[1]["notes"]
    assert state.counters == (3, 3, 1)
    assert state.specials[2] == () and "aex-equo#1" in state.discard
    assert "skirmish#1" in state.discard and state.phase == PLAY


def test_the_referee_keeps_its_owners_king_even_after_another():
    state = table(hands={0: ["skirmish#1"]}, friends={1: "the-referee#1"})
    state, rolls = _rolls(state, 6, 6)
    assert [r["result"] for r in rolls] == ["king", "king"] and rolls[1]["notes"] == ["fair_play"]


def test_the_active_players_darth_counts_as_black_but_not_an_opponents():
    state = table(hands={0: ["skirmish#1"]}, counters={0: 5, 1: 5})
    state, rolls = _rolls(state, 1, 1)
    assert [(r["face"], r["result"]) for r in rolls] == [("darth", "black"), ("darth", "darth")]
    assert rolls[0]["notes"] == ["darth_counts_as_black"]
    assert state.counters == (5, 4)


def test_a_malus_can_push_the_active_player_to_darth_which_then_counts_as_black():
    state = table(hands={0: ["skirmish#1"]}, specials={0: ["glue-on-fingers#1"]})
    state, rolls = _rolls(state, 2, joins=(DECLINE,))
    assert rolls[0]["modifier"] == -1 and rolls[0]["result"] == "black"


def test_game_losses_stop_at_zero_counters_and_leave_card_values_alone():
    state = table(
        hands={0: ["painting-contest#1"]},
        items={1: ["dice-bag#1"]},
        counters={1: 1},
    )
    state, rolls = _rolls(state, 4, 1)
    loser = rolls[1]
    assert (loser["result"], loser["table_gp"], loser["gp"], loser["counters"]) == (
        "darth",
        -3,
        -1,
        0,
    )
    assert state.counters == (2, 0) and state.items[1] == ("dice-bag#1",)
    assert GAME.result(state).standings[1].score == 1


def test_players_roll_in_table_order_from_the_active_player():
    state = table(players=4, hands={2: ["skirmish#1"]}, active=2)
    state, _ = act(state, (2, play("skirmish#1")))
    state, _ = act(state, (3, JOIN), (0, DECLINE), (1, JOIN))
    state, events = close(state)
    assert only(events, "JoinsRevealed") == [
        {"joined": [3, 1], "declined": [0], "players": [2, 3, 1]}
    ]
    order = []
    while state.phase == "roll":
        seat = GAME.owed(state)[0].seat
        order.append(seat)
        state, _ = act(state, (seat, ROLL), rng=Dice(3))
    assert order == [2, 3, 1]


def test_every_roll_is_drawn_from_the_seeded_rng_and_written_as_an_event():
    state = table(hands={0: ["skirmish#1"]})
    state, _ = act(state, (0, play("skirmish#1")), (1, DECLINE))
    state, _ = close(state)
    for counter in range(6):
        rng = Rng(b"seed", counter)
        events = GAME.decide(state, 0, ROLL, rng)
        expected = Rng(b"seed", counter).below(6) + 1
        assert only(events, "DieRolled")[0]["die"] == expected
        assert rng.counter > counter  # the draw advanced the counter
    replayed = GAME.decide(state, 0, ROLL, Rng(b"seed", 3))
    assert replayed == GAME.decide(state, 0, ROLL, Rng(b"seed", 3))
    assert names(replayed)[:2] == ["DieRolled", "GameClosed"]


def test_a_game_nobody_else_may_join_goes_straight_to_the_active_players_roll():
    state = table(hands={0: ["skirmish#1"]}, specials={1: ["banned-wargames#1"]})
    state, events = act(state, (0, play("skirmish#1")))
    assert only(events, "GameOpened")[0]["eligible"] == []
    assert state.phase == "roll" and [o.seat for o in GAME.owed(state)] == [0]


def test_the_good_sport_turns_its_owners_darth_into_black_and_the_goblin_helps_every_game():
    state = table(hands={0: ["family-game#1"]}, friends={0: "the-goblin#1", 1: "the-good-sport#1"})
    state, rolls = _rolls(state, 3, 1)
    assert [(r["modifier"], r["result"]) for r in rolls] == [(1, "green"), (0, "black")]
    assert rolls[1]["notes"] == ["darth_counts_as_black"]


def test_a_malus_friend_weighs_on_every_opponent_of_its_owner_but_not_on_its_owner():
    from games.gobcon.cards import catalog_of, default_deck

    malus_friends = [c for c in catalog_of(default_deck()).values() if c.kind == "malus"]
    assert any(c.type == "friend" for c in malus_friends), "the default deck has a malus Friend"
    state = table(
        players=3,
        hands={0: ["family-game#1"]},
        friends={1: "the-heckler#1"},
        items={0: ["board-expansion#1"], 1: ["spare-meeples#1"], 2: ["board-expansion#2"]},
    )
    assert [GAME.view(state, None, "en")["players"][s]["modifiers"]["Board"] for s in range(3)] == [
        -1,
        0,
        -1,
    ]
    assert [score(state, s) for s in range(3)] == [1, 2 + 1, 1]  # Items 2-1; Heckler 2 + Item 1
    state, rolls = _rolls(state, 4, 4, 4, joins=(JOIN, JOIN))
    assert [(r["seat"], r["modifier"], r["result"]) for r in rolls] == [
        (0, -1, "black"),
        (1, 0, "green"),
        (2, -1, "black"),
    ]

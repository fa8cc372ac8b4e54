"""GobCon Specials and reaction windows: bonus/malus, prohibitions, GP cards, cancels."""

from __future__ import annotations

import pytest

from games.base import RuleViolation
from games.gobcon import GAME
from games.gobcon.scoring import score
from games.rng import NoRng
from tests.games.gobcon_table import (
    JOIN,
    PASS,
    act,
    close,
    names,
    only,
    play,
    respond,
    table,
    target,
)


def _error(state, seat, action) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        GAME.decide(state, seat, action, NoRng())
    return err.value


def test_a_bonus_and_a_malus_of_one_category_on_one_player_cancel_and_are_discarded():
    state = table(
        hands={0: ["steady-hands#1"]},
        items={0: ["terrain-set#1"]},
        specials={0: ["glue-on-fingers#1"]},
    )
    assert score(state, 0) == 1  # Terrain Set 2, malus -1
    state, events = act(state, (0, play("steady-hands#1")))
    assert names(events) == ["CardPlayed", "SpecialResolved", "BonusMalusCancelled"]
    assert state.specials[0] == ()
    assert {"steady-hands#1", "glue-on-fingers#1"} <= set(state.discard)
    assert score(state, 0) == 2


def test_bonuses_and_maluses_of_different_categories_do_not_cancel():
    state = table(hands={0: ["steady-hands#1"]}, specials={0: ["lost-rulebook#1"]})
    state, events = act(state, (0, play("steady-hands#1")))
    assert "BonusMalusCancelled" not in names(events)
    assert set(state.specials[0]) == {"steady-hands#1", "lost-rulebook#1"}


def test_bonus_and_malus_change_only_items_of_their_category():
    state = table(
        items={0: ["terrain-set#1", "dice-bag#1", "booster-pack#1"]},
        specials={0: ["steady-hands#1", "marked-cards#1"]},
    )
    # Terrain Set 2+1, Dice Bag 1 (no category: never changes), Booster Pack 2-1
    assert score(state, 0) == 3 + 1 + 1


def test_a_malus_never_makes_an_item_worth_less_than_zero():
    state = table(
        items={0: ["painted-miniature#1"]},
        specials={0: ["glue-on-fingers#1", "glue-on-fingers#2"]},
    )
    assert score(state, 0) == 0


def test_a_malus_is_aimed_at_an_opponent():
    state = table(players=3, hands={0: ["marked-cards#1"]})
    state, events = act(state, (0, play("marked-cards#1")))
    assert only(events, "CardPlayed")[0]["aim"] is True and state.phase == "aim"
    assert GAME.owed(state)[0].default == {"type": "target", "seat": 1}
    assert _error(state, 0, target(0)).code == "bad_target"
    state, events = act(state, (0, target(2)))
    assert state.specials[2] == ("marked-cards#1",)


def test_with_two_players_the_only_opponent_is_the_target_without_asking():
    state = table(hands={0: ["spilled-soda#1"]})
    state, events = act(state, (0, play("spilled-soda#1")))
    assert only(events, "SpecialResolved")[0]["target"] == 1
    assert score(state, 1) == -1  # negative Specials may take a score below zero


def test_positive_gp_specials_stay_in_front_of_their_player_and_count():
    state = table(hands={0: ["fan-club#1", "good-impression#1"]})
    state, _ = act(state, (0, play("fan-club#1")), (0, play("good-impression#1")))
    assert state.specials[0] == ("fan-club#1", "good-impression#1") and score(state, 0) == 3


def test_a_prohibited_player_may_not_buy_items_or_play_games_of_that_category():
    state = table(
        hands={0: ["terrain-set#1", "skirmish#1", "dice-bag#1", "booster-pack#1"]},
        specials={0: ["banned-wargames#1"]},
    )
    for card in ("terrain-set#1", "skirmish#1"):
        err = _error(state, 0, play(card))
        assert (err.code, err.field) == ("prohibited", "card")
    plays = next(s for s in GAME.legal(state, 0) if s.type == "play")
    assert [c["card"] for c in plays.choices] == ["dice-bag#1", "booster-pack#1"]


def test_items_already_in_play_stay_when_a_prohibition_arrives():
    state = table(hands={1: ["banned-wargames#1"]}, items={0: ["terrain-set#1"]}, active=1)
    state, _ = act(state, (1, play("banned-wargames#1")))
    assert state.items[0] == ("terrain-set#1",) and state.specials[0] == ("banned-wargames#1",)


def test_a_prohibited_player_is_refused_from_joining_a_game_of_that_category():
    state = table(players=3, hands={0: ["skirmish#1"]}, specials={1: ["banned-wargames#1"]})
    state, events = act(state, (0, play("skirmish#1")))
    assert only(events, "GameOpened")[0]["eligible"] == [2]
    assert [o.seat for o in GAME.owed(state)] == [2]
    err = _error(state, 1, JOIN)
    assert err.code == "prohibited"
    state, _ = act(state, (2, JOIN))
    state, events = close(state)
    assert only(events, "JoinsRevealed")[0]["players"] == [0, 2]


def test_an_appeal_lifts_every_prohibition_in_front_of_its_player():
    state = table(
        hands={0: ["appeal-to-the-organizers#1", "terrain-set#1"]},
        specials={0: ["banned-wargames#1", "banned-rpg#1", "fan-club#1"]},
    )
    state, events = act(state, (0, play("appeal-to-the-organizers#1")))
    assert only(events, "ProhibitionsLifted")[0]["cards"] == ["banned-wargames#1", "banned-rpg#1"]
    assert state.specials[0] == ("fan-club#1",)
    state, _ = act(state, (0, play("terrain-set#1")))
    assert state.items[0] == ("terrain-set#1",)


def test_a_special_with_nothing_to_do_is_refused():
    state = table(hands={0: ["appeal-to-the-organizers#1", "shut-up-logorrea-man#1"]})
    assert _error(state, 0, play("appeal-to-the-organizers#1")).code == "no_effect"
    assert _error(state, 0, play("shut-up-logorrea-man#1")).code == "no_effect"


def test_a_cancel_card_is_not_played_on_ones_own_turn():
    state = table(hands={0: ["not-so-fast#1"]})
    assert _error(state, 0, play("not-so-fast#1")).code == "not_playable_now"


# Reaction windows


def test_a_play_opens_a_window_for_every_other_player_holding_cards():
    state = table(players=4, hands={0: ["dice-bag#1"], 1: ["fan-club#1"], 3: ["not-so-fast#1"]})
    state, events = act(state, (0, play("dice-bag#1")))
    assert only(events, "WindowOpened")[0]["responders"] == [1, 3]
    owed = GAME.owed(state)
    assert [(o.seat, o.kind, o.simultaneous, o.default) for o in owed] == [
        (1, "respond", True, PASS),
        (3, "respond", True, PASS),
    ]
    assert len({o.key for o in owed}) == 1
    state, events = act(state, (1, PASS))
    assert events[0].visible_to == (1,) and GAME.ready(state) is None
    state, _ = act(state, (3, PASS))
    assert GAME.ready(state) == owed[0].key and GAME.owed(state) == []
    state, events = close(state)
    assert names(events) == ["ResponsesRevealed", "WindowClosed", "ItemBought"]
    assert state.items[0] == ("dice-bag#1",)


def test_a_cancel_in_the_window_undoes_the_play_entirely():
    state = table(
        players=3,
        hands={0: ["army-box#1", "dice-bag#1"], 1: ["not-so-fast#1"], 2: ["fan-club#1"]},
    )
    before = score(state, 0)
    state, _ = act(state, (0, play("army-box#1")), (1, respond("not-so-fast#1")), (2, PASS))
    state, events = close(state)
    assert names(events) == ["ResponsesRevealed", "ResponsePlayed", "PlayCancelled", "WindowClosed"]
    assert only(events, "PlayCancelled") == [
        {"seat": 0, "card": "army-box#1", "by": 1, "cancel": "not-so-fast#1"}
    ]
    assert state.items[0] == () and score(state, 0) == before
    assert {"army-box#1", "not-so-fast#1"} <= set(state.discard)
    assert state.hands[1] == () and state.used == ()
    state, events = act(state, (0, play("dice-bag#1")))  # the slot was never used
    assert "WindowOpened" not in names(events)  # nobody holds an answer any more
    assert state.items[0] == ("dice-bag#1",)


def test_a_cancelled_game_is_never_played():
    state = table(hands={0: ["skirmish#1"], 1: ["not-so-fast#1"]})
    state, _ = act(state, (0, play("skirmish#1")), (1, respond("not-so-fast#1")))
    state, events = close(state)
    assert "GameOpened" not in names(events) and state.contest is None
    assert state.phase == "play" and "game" not in state.used


def test_an_any_time_malus_answering_a_play_lands_on_the_player_who_made_it():
    state = table(hands={0: ["skirmish#1"], 1: ["glue-on-fingers#1"]})
    state, _ = act(state, (0, play("skirmish#1")), (1, respond("glue-on-fingers#1")))
    state, events = close(state)
    assert only(events, "ResponsePlayed")[0]["target"] == 0
    assert state.specials[0] == ("glue-on-fingers#1",)
    assert names(events)[-1] == "GameOpened"


def test_only_a_cancel_may_answer_a_special():
    state = table(hands={0: ["fan-club#1"], 1: ["glue-on-fingers#1", "not-so-fast#1"]})
    state, _ = act(state, (0, play("fan-club#1")))
    err = _error(state, 1, respond("glue-on-fingers#1"))
    assert (err.code, err.field) == ("special_resolving", "card")
    answers = next(s for s in GAME.legal(state, 1) if s.type == "respond")
    assert answers.choices == [respond("not-so-fast#1")]


def test_a_your_turn_card_cannot_answer_a_window():
    state = table(hands={0: ["dice-bag#1"], 1: ["fan-club#1", "not-so-fast#1"]})
    state, _ = act(state, (0, play("dice-bag#1")))
    assert _error(state, 1, respond("fan-club#1")).code == "not_any_time"
    answers = next(s for s in GAME.legal(state, 1) if s.type == "respond")
    assert answers.choices == [respond("not-so-fast#1")]


def test_window_answers_are_sealed_until_the_window_closes():
    state = table(players=3, hands={0: ["dice-bag#1"], 1: ["not-so-fast#1"], 2: ["fan-club#1"]})
    state, events = act(state, (0, play("dice-bag#1")), (1, respond("not-so-fast#1")))
    sealed = events[-1]
    assert sealed.visible_to == (1,)
    assert GAME.redact(sealed, 2) == {"seat": 1} and GAME.redact(sealed, None) == {"seat": 1}
    for seat in (0, 2, None):
        assert "not-so-fast#1" not in str(GAME.view(state, seat, "en"))
    assert GAME.view(state, 1, "en")["window"]["your_answer"]["id"] == "not-so-fast#1"
    assert GAME.view(state, 2, "en")["window"]["answered"] == [1]


def test_a_deck_without_any_time_cards_never_opens_windows():
    from games.gobcon.cards import default_deck

    deck = default_deck()
    for card in deck["cards"]:
        if card["type"] == "special" and card["effect"]["kind"] != "cancel":
            card["timing"] = "your_turn"
        if card["type"] == "special" and card["effect"]["kind"] == "cancel":
            card["type"], card["gp"], card["category"] = "item", 0, None
            del card["effect"], card["keep"], card["timing"]
    state = table(hands={0: ["dice-bag#1"], 1: ["fan-club#1"]}, options={"deck": deck})
    state, events = act(state, (0, play("dice-bag#1")))
    assert "WindowOpened" not in names(events) and state.items[0] == ("dice-bag#1",)

"""GobCon's interface: action checks and error codes, owed decisions, options and decks, views."""

from __future__ import annotations

import copy
import json

import pytest

from games.base import InvalidAction, NotYourTurn, OptionError, PhaseClosed, RuleViolation
from games.gobcon import GAME
from games.gobcon.cards import default_deck
from games.rng import NoRng, Rng
from tests.games.gobcon_table import DECLINE, END, JOIN, PASS, ROLL, act, close, play, table


def _error(state, seat, action) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        GAME.decide(state, seat, action, NoRng())
    return err.value


@pytest.mark.parametrize(
    ("action", "field"),
    [
        ("play", "type"),
        ({}, "type"),
        ({"type": "buy"}, "type"),
        ({"type": 3}, "type"),
        ({"type": "play"}, "card"),
        ({"type": "play", "card": 7}, "card"),
        ({"type": "play", "card": "dice-bag#1", "target": 1}, "target"),
        ({"type": "target", "seat": True}, "seat"),
        ({"type": "target", "seat": "1"}, "seat"),
        ({"type": "end_turn", "discard": []}, "discard"),
    ],
)
def test_a_malformed_action_is_invalid_and_names_its_field(action, field):
    err = _error(table(hands={0: ["dice-bag#1"]}), 0, action)
    assert isinstance(err, InvalidAction) and (err.code, err.field) == ("invalid_action", field)


def test_acting_out_of_turn_is_refused():
    state = table(hands={0: ["dice-bag#1"], 1: ["fan-club#1"]})
    assert isinstance(_error(state, 1, END), NotYourTurn)
    assert _error(state, 7, END).code == "not_your_turn"


def test_answering_a_phase_that_is_not_open_is_phase_closed():
    state = table(hands={0: ["dice-bag#1"], 1: ["fan-club#1"]})
    for action in (PASS, JOIN, DECLINE):
        assert isinstance(_error(state, 1, action), PhaseClosed)


def test_an_action_that_does_not_answer_the_owed_decision_is_not_allowed():
    state = table(hands={0: ["dice-bag#1"], 1: ["not-so-fast#1"]})
    assert (_error(state, 0, ROLL).code, _error(state, 0, ROLL).field) == (
        "action_not_allowed",
        "type",
    )
    state, _ = act(state, (0, play("dice-bag#1")))
    assert _error(state, 1, JOIN).code == "action_not_allowed"
    assert _error(state, 0, PASS).code == "not_your_turn"  # no answer to one's own play


def test_a_card_must_be_in_the_players_hand():
    state = table(hands={0: ["dice-bag#1"], 1: ["army-box#1"]})
    err = _error(state, 0, play("army-box#1"))
    assert (err.code, err.field) == ("card_not_in_hand", "card")
    assert _error(state, 0, {"type": "discard", "card": "nope"}).code == "card_not_in_hand"


def test_join_answers_are_sealed_and_a_second_one_is_refused():
    state = table(players=3, hands={0: ["skirmish#1"]})
    state, events = act(state, (0, play("skirmish#1")), (1, JOIN))
    assert events[-1].visible_to == (1,) and GAME.redact(events[-1], 2) == {"seat": 1}
    assert _error(state, 1, DECLINE).code == "already_submitted"
    assert _error(state, 0, JOIN).code == "not_your_turn"
    assert GAME.view(state, 1, "en")["game_in_play"]["your_join"] is True
    for seat in (0, 2, None):
        assert GAME.view(state, seat, "en")["game_in_play"]["your_join"] is None


def test_each_decision_has_a_default_and_a_key_that_changes_once_made():
    state = table(players=3, hands={0: ["skirmish#1", "dice-bag#1"], 2: ["not-so-fast#1"]})
    first = GAME.owed(state)
    assert [(o.seat, o.kind, o.default, o.simultaneous) for o in first] == [(0, "turn", END, False)]
    state, _ = act(state, (0, play("dice-bag#1")))
    window = GAME.owed(state)
    assert [(o.kind, o.default) for o in window] == [("respond", PASS)]
    state, _ = act(state, (2, window[0].default))
    state, _ = close(state)
    second = GAME.owed(state)
    assert second[0].key != first[0].key
    state, _ = act(state, (0, play("skirmish#1")), (2, PASS))
    state, _ = close(state)
    joins = GAME.owed(state)
    assert [(o.seat, o.kind, o.default) for o in joins] == [
        (1, "join", DECLINE),
        (2, "join", DECLINE),
    ]
    assert joins[0].key == joins[1].key and joins[0].key.startswith("join-")
    assert all(set(o.key) <= set("abcdefghijklmnopqrstuvwxyz_-0123456789") for o in joins)
    state, _ = act(state, (1, DECLINE), (2, DECLINE))
    state, _ = close(state)
    assert [(o.kind, o.default) for o in GAME.owed(state)] == [("roll", ROLL)]


def test_legal_gives_full_schemas_and_every_choice():
    hand = ["dice-bag#1", "marked-cards#1"]
    state = table(players=3, hands={0: hand}, friends={0: "the-dealer#1"})
    specs = {s.type: s for s in GAME.legal(state, 0)}
    assert list(specs) == ["play", "discard", "dismiss_friend", "end_turn"]
    play_spec = specs["play"]
    assert play_spec.schema == {
        "type": "object",
        "properties": {
            "type": {"const": "play"},
            "card": {"type": "string", "enum": ["dice-bag#1", "marked-cards#1"]},
        },
        "required": ["type", "card"],
        "additionalProperties": False,
    }
    assert play_spec.choices == [play("dice-bag#1"), play("marked-cards#1")]
    assert GAME.legal(state, 1) == []
    state, _ = act(state, (0, play("marked-cards#1")))
    aim = GAME.legal(state, 0)[0]
    assert aim.schema["properties"]["seat"] == {"type": "integer", "enum": [1, 2]}


def test_the_goal_option_runs_from_twenty_to_one_hundred():
    assert GAME.normalize_options({"goal": 20}, 2)["goal"] == 20
    assert GAME.normalize_options({"goal": 100}, 2)["goal"] == 100
    for goal in (1, 10, 19, 101):
        with pytest.raises(OptionError) as err:
            GAME.normalize_options({"goal": goal}, 2)
        assert err.value.field == "goal"
    schema = GAME.options_schema["properties"]["goal"]
    assert (schema["minimum"], schema["maximum"], schema["default"]) == (20, 100, 20)


def test_options_get_defaults_and_bad_values_name_their_field():
    assert GAME.normalize_options({}, 2) == {
        "goal": 20,
        "time_limit": None,
        "end_on_empty_deck": False,
        "deck": "default",
    }
    assert GAME.normalize_options({"goal": 30, "time_limit": 5}, 6)["goal"] == 30
    assert GAME.options_schema["additionalProperties"] is False
    bad = [
        ({"goal": 0}, 2, "goal"),
        ({"goal": 19}, 2, "goal"),
        ({"goal": 101}, 2, "goal"),
        ({"goal": True}, 2, "goal"),
        ({"goal": "20"}, 2, "goal"),
        ({"time_limit": 0}, 2, "time_limit"),
        ({"end_on_empty_deck": "yes"}, 2, "end_on_empty_deck"),
        ({"deck": "printed"}, 2, "deck"),
        ({"colour": 1}, 2, "colour"),
        ({}, 1, "players"),
        ({}, 7, "players"),
    ]
    for options, players, field in bad:
        with pytest.raises(OptionError) as err:
            GAME.normalize_options(options, players)
        assert err.value.field == field


def _deck_error(mutate) -> OptionError:
    deck = default_deck()
    mutate(deck)
    with pytest.raises(OptionError) as err:
        GAME.normalize_options({"deck": deck}, 3)
    return err.value


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda d: d["cards"][3].update(gp="2"), "deck.cards[3].gp"),
        (lambda d: d["cards"][0].update(colour="green"), "deck.cards[0].colour"),
        (lambda d: d["cards"][5].update(type="token"), "deck.cards[5].type"),
        (lambda d: d["cards"][5].update(id="Bad Id"), "deck.cards[5].id"),
        (lambda d: d["cards"][6].update(id=d["cards"][5]["id"]), "deck.cards[6].id"),
        (lambda d: d["cards"][2].update(count=0), "deck.cards[2].count"),
        (lambda d: d["cards"][2].update(name=""), "deck.cards[2].name.en"),
        (lambda d: d["cards"][1]["ability"].update(category="X"), "deck.cards[1].ability.category"),
        (lambda d: d["cards"][0]["ability"].update(kind="telepathy"), "deck.cards[0].ability.kind"),
        (lambda d: d["cards"][13].update(category="Wargames"), "deck.cards[13].category"),
        (lambda d: d["cards"][31]["table"].pop("king"), "deck.cards[31].table.king"),
        (lambda d: d["cards"][46].update(keep=False), "deck.cards[46].keep"),
        (lambda d: d["cards"][46].update(timing="sometimes"), "deck.cards[46].timing"),
        (lambda d: d["cards"][48].update(timing="your_turn"), "deck.cards[48].timing"),
        (lambda d: d["cards"][-1]["effect"].update(gp=0), "deck.cards[57].effect.gp"),
        (lambda d: d["cards"][2].update(count=3), "deck.cards"),
        (lambda d: d.update(cards=[]), "deck.cards"),
        (lambda d: d.update(name=5), "deck.name"),
        (lambda d: d.update(size=117), "deck.size"),
    ],
)
def test_a_bad_deck_names_the_offending_field(mutate, field):
    assert _deck_error(mutate).field == field


def test_the_default_deck_holds_117_cards_in_the_four_colours():
    cards = default_deck()["cards"]
    totals = {}
    for card in cards:
        totals[card["type"]] = totals.get(card["type"], 0) + card["count"]
    assert totals == {"friend": 12, "item": 30, "game": 25, "special": 50}
    talkers = [c for c in cards if c["type"] == "friend" and c["ability"]["kind"] == "logorrea"]
    assert [(c["name"]["en"], c["gp"], c["count"]) for c in talkers] == [("Logorrea-Man", 1, 1)]
    kinds = {c["effect"]["kind"] for c in cards if c["type"] == "special"}
    assert kinds == {
        "bonus",
        "malus",
        "prohibition",
        "gp",
        "cancel",
        "aex_equo",
        "remove_logorrea",
        "lift_prohibitions",
    }
    for category in ("3D", "Board", "Card", "RPG"):
        for kind in ("bonus", "malus", "prohibition"):
            assert any(
                c["type"] == "special" and c["effect"] == {"kind": kind, "category": category}
                for c in cards
            )


def test_an_operator_deck_inline_in_the_options_is_played():
    deck = copy.deepcopy(default_deck())
    deck["name"] = "Printed cards"
    deck["cards"][0]["text"] = {"en": "Talks and talks.", "es": "Habla y habla."}
    deck["cards"][12]["name"] = "Just one name"
    options = GAME.normalize_options({"deck": deck}, 2)
    assert options == GAME.normalize_options(options, 2)  # normal form is stable
    events = GAME.setup(options, (0, 1), Rng(b"printed"))
    assert events[0].data["deck"]["name"] == "Printed cards"
    state = None
    for ev in events:
        state = GAME.evolve(state, ev)
    assert GAME.view(state, 0, "es")["deck"] == "Printed cards"
    assert state.card("logorrea-man#1").text["es"] == "Habla y habla."
    renamed = state.catalog[deck["cards"][12]["id"]]
    assert renamed.name == {"en": "Just one name", "es": "Just one name"}


def test_events_survive_a_json_round_trip():
    events = GAME.setup({}, (1, 0, 2), Rng(b"json"))
    direct, via_json = None, None
    for ev in events:
        direct = GAME.evolve(direct, ev)
        copied = type(ev)(ev.type, json.loads(json.dumps(ev.data)), ev.visible_to)
        via_json = GAME.evolve(via_json, copied)
    assert direct == via_json


def test_the_view_names_cards_in_the_viewers_language():
    state = table(hands={0: ["skirmish#1"]}, items={1: ["board-expansion#1"]})
    es = GAME.view(state, 0, "es")
    assert es["hand"][0]["name"] == "Escaramuza" and es["faces"]["king"] == "Rey Goblin"
    assert es["players"][1]["items"][0]["category_name"] == "Tablero"
    en = GAME.view(state, 0, "en")
    assert en["hand"][0]["table"] == {"darth": -1, "black": 0, "green": 1, "king": 3}
    assert GAME.view(state, None, "en")["hand"] is None
    assert GAME.view(state, 1, "en")["hand"] == []

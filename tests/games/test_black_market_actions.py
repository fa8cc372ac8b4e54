"""Black Market's interface: action shapes and error codes, owed decisions, legal schemas,
options, views and JSON-stable events."""

from __future__ import annotations

import json
import random
import re

import jsonschema
import pytest

from games.base import InvalidAction, NotYourTurn, OptionError, PhaseClosed, RuleViolation
from games.black_market import GAME
from games.black_market.legal import productions
from games.rng import NoRng, Rng
from games.schemas import value_for
from tests.games.black_market_table import (
    PASS,
    act,
    arrange,
    bid,
    fold,
    produce,
    propose,
    started,
    submit,
)
from tests.support.schemas import validate, validator

KEY = re.compile(r"[A-Za-z0-9_-]+")


def _error(state, seat, action) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        GAME.decide(state, seat, action, NoRng())
    return err.value


@pytest.mark.parametrize(
    ("action", "field"),
    [
        ("produce", "type"),
        ({}, "type"),
        ({"type": "make"}, "type"),
        ({"type": "produce"}, "goods"),
        ({"type": "produce", "goods": "red"}, "goods"),
        ({"type": "produce", "goods": ["gold"]}, "goods"),
        ({"type": "produce", "goods": [1]}, "goods"),
        ({"type": "produce", "goods": [], "note": 1}, "note"),
        ({"type": "answer", "accept": 1}, "accept"),
        ({"type": "pick", "seat": True}, "seat"),
        ({"type": "accept", "offer": 3}, "offer"),
        ({"type": "shift", "colour": "red", "direction": "left"}, "direction"),
        ({"type": "sell", "vp": {"red": -1}}, "vp"),
        ({"type": "sell", "vp": ["red"]}, "vp"),
        ({"type": "raise", "colour": None}, "colour"),
    ],
)
def test_a_malformed_action_is_invalid_and_names_its_field(action, field):
    err = _error(started(3), 0, action)
    assert isinstance(err, InvalidAction) and err.code == "invalid_action" and err.field == field


def test_simultaneous_submissions_are_refused_when_closed_twice_or_by_outsiders():
    state = started(3)
    assert isinstance(_error(state, 0, bid()), PhaseClosed)
    assert _error(state, 0, bid()).code == "phase_closed"
    assert _error(state, 5, produce()).code == "not_your_turn"
    state, _ = submit(state, (0, produce()))
    assert _error(state, 0, produce("red")).code == "already_submitted"
    state, _ = submit(state, (1, produce()), (2, produce()))
    assert _error(state, 0, produce()).code == "phase_closed"  # ready, waiting for a worker


def test_turn_decisions_are_refused_out_of_turn_or_of_the_wrong_kind():
    state, _ = act(started(3), *((s, produce()) for s in range(3)))
    err = _error(state, 1, PASS)
    assert isinstance(err, NotYourTurn) and err.code == "not_your_turn"
    assert _error(state, 0, {"type": "raise", "colour": "red"}).code == "action_not_allowed"
    state, _ = submit(state, (0, propose(["red"], ["green"])))
    assert _error(state, 0, PASS).code == "not_your_turn"  # the proposer waits for answers
    assert _error(state, 0, {"type": "answer", "accept": True}).code == "not_your_turn"


def test_nothing_can_be_decided_before_setup_or_resolved_when_nothing_is_ready():
    with pytest.raises(RuleViolation) as err:
        GAME.decide(None, 0, produce(), NoRng())
    assert err.value.code == "action_not_allowed"
    with pytest.raises(RuleViolation):
        GAME.resolve(started(3), NoRng())
    assert GAME.ready(started(3)) is None and GAME.ready(None) is None


def test_owed_decisions_share_the_phase_key_and_the_key_changes_once_decided():
    state = started(4)
    owed = GAME.owed(state)
    assert {o.key for o in owed} == {"produce-r1"} and all(o.simultaneous for o in owed)
    assert all(o.default == produce() and KEY.fullmatch(o.key) for o in owed)
    state, _ = act(state, *((s, produce()) for s in range(4)))
    assert [o.key for o in GAME.owed(state)] == ["propose-r1-t0"]
    state, _ = act(state, (0, PASS))
    assert [o.key for o in GAME.owed(state)] == ["propose-r1-t1"]


def test_options_default_to_regulated_trade_and_bad_values_name_their_field():
    assert GAME.normalize_options({}, 4) == {"trade": "regulated"}
    assert GAME.normalize_options(None, 3) == {"trade": "regulated"}
    assert GAME.normalize_options({"trade": "wild"}, 6) == {"trade": "wild"}
    for options, players, field in [
        ({"trade": "free"}, 4, "trade"),
        ({"speed": 1}, 4, "speed"),
        ([], 4, "options"),
        ({}, 2, "players"),
        ({}, 7, "players"),
    ]:
        with pytest.raises(OptionError) as err:
            GAME.normalize_options(options, players)
        assert err.value.field == field
    assert GAME.options_schema["additionalProperties"] is False
    jsonschema.Draft202012Validator.check_schema(GAME.options_schema)


def test_the_game_object_carries_the_contract():
    assert GAME.id == "black-market" and GAME.rules_version == 3
    assert (GAME.min_players, GAME.max_players) == (3, 6)
    assert GAME.names == {"en": "Black Market", "es": "Mercado negro"}


def test_production_lists_every_legal_choice_in_its_schema():
    assert len(productions(4, 2)) == 204 and () in productions(4, 2)
    assert ("red",) * 3 in productions(4, 2) and ("red",) * 4 not in productions(4, 2)
    assert ("red",) * 4 in productions(4, 3) and len(productions(5, 2)) > 204


def _check_specs(state, seat, pick):
    for spec in GAME.legal(state, seat):
        check = validator(spec.schema)  # a valid 2020-12 schema
        # listed choices are the exact set; without them every schema value must be legal
        samples = spec.choices or [value_for(spec.schema, pick) for _ in range(3)]
        for action in samples:
            check.validate(action)
            GAME.decide(state, seat, action, NoRng())  # every listed action is legal


@pytest.mark.parametrize("trade", ["regulated", "wild"])
def test_every_legal_choice_and_schema_value_is_accepted(trade):
    pick = random.Random(3)
    state = fold(GAME.setup({"trade": trade}, (0, 1, 2, 3), Rng(b"legal")))
    for _ in range(400):
        if GAME.is_over(state):
            break
        if GAME.ready(state):
            state = fold(GAME.resolve(state, NoRng()), state)
            continue
        owed = GAME.owed(state)
        for o in owed:
            validate(o.default, _spec_of(state, o.seat, o.default["type"]))
        seat = pick.choice(owed).seat
        _check_specs(state, seat, pick)
        spec = pick.choice(GAME.legal(state, seat))
        action = pick.choice(spec.choices) if spec.choices else value_for(spec.schema, pick)
        state = fold(GAME.decide(state, seat, action, NoRng()), state)


def _spec_of(state, seat, kind):
    return next(s.schema for s in GAME.legal(state, seat) if s.type == kind)


def test_every_event_survives_a_json_round_trip_and_replays_to_the_same_state():
    state = started(5, trade="wild")
    events = GAME.setup({"trade": "wild"}, tuple(range(5)), Rng(b"table"))
    plain = None
    for ev in events:
        plain = GAME.evolve(plain, ev)
    assert plain == state


def test_the_view_names_colours_and_cards_in_the_viewers_language():
    state = arrange(started(3), cards={0: ["grannys_basement"]}, card="spare_disc")
    en, es = GAME.view(state, 0, "en"), GAME.view(state, 0, "es")
    assert en["name"] == "Black Market" and es["name"] == "Mercado negro"
    assert en["colours"][0]["name"] == "red" and es["colours"][0]["name"] == "rojo"
    assert es["players"][0]["cards"][0]["name"] == "El sótano de la abuela"
    assert en["players"][0]["production_limit"] == 5 and en["card"]["id"] == "spare_disc"
    assert en["you"] == 0 and GAME.view(state, None, "en")["you"] is None
    assert en["deck_size"] == len(state.deck) == 8
    for seat in (0, 1, None):
        text = json.dumps(GAME.view(state, seat, "en"))
        assert not any(f'"{card}"' in text for card in state.deck)  # the deck stays hidden

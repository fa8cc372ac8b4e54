"""Goblin Market's interface: action checks and error codes, owed decisions, options, views."""

from __future__ import annotations

import json

import pytest

import games
from games.base import Event, InvalidAction, NotYourTurn, OptionError, RuleViolation
from games.goblin_market import GAME
from games.goblin_market.scoring import score_cards
from games.rng import NoRng, Rng
from tests.games.goblin_market_table import (
    PASS,
    TAKE_ALL,
    act,
    bid,
    choose,
    only,
    table,
    take_one,
)

THREE_CARDS = ["The Bard", "The Author", "The Desert", "The Origin"]


def _error(state, seat, action) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        GAME.decide(state, seat, action, NoRng())
    return err.value


@pytest.mark.parametrize(
    ("action", "field"),
    [
        ("bid", "type"),
        ({}, "type"),
        ({"type": "raise", "amount": 3}, "type"),
        ({"type": 7}, "type"),
        ({"type": "bid"}, "amount"),
        ({"type": "bid", "amount": True}, "amount"),
        ({"type": "bid", "amount": "3"}, "amount"),
        ({"type": "bid", "amount": 3.0}, "amount"),
        ({"type": "bid", "amount": 3, "note": "hi"}, "note"),
        ({"type": "pass", "amount": 3}, "amount"),
        ({"type": "take_one"}, "card"),
        ({"type": "choose", "card": 3}, "card"),
    ],
)
def test_a_malformed_action_is_invalid_and_names_its_field(action, field):
    state, _ = table([10, 10, 10])
    err = _error(state, 0, action)
    assert isinstance(err, InvalidAction) and err.code == "invalid_action" and err.field == field


def test_acting_out_of_turn_is_refused():
    state, _ = table([10, 10, 10])
    err = _error(state, 1, bid(3))
    assert isinstance(err, NotYourTurn) and err.code == "not_your_turn"
    assert _error(state, 9, PASS).code == "not_your_turn"


def test_a_bid_must_beat_the_high_bid_and_be_at_least_one():
    state, _ = table([10, 10, 10])
    assert _error(state, 0, bid(0)).code == "bid_too_low"
    state, _ = act(state, (0, bid(5)))
    err = _error(state, 1, bid(5))
    assert (err.code, err.field) == ("bid_too_low", "amount")


def test_a_bid_above_the_bidders_coins_is_refused():
    state, _ = table([10, 10, 10])
    err = _error(state, 0, bid(11))
    assert (err.code, err.field) == ("insufficient_coins", "amount")


def test_an_action_of_the_wrong_phase_is_not_allowed():
    state, _ = table([10, 10, 10], deck_top=THREE_CARDS)
    assert _error(state, 0, TAKE_ALL).code == "action_not_allowed"
    state, _ = act(state, (0, bid(2)), (1, bid(3)), (2, PASS), (0, PASS))
    assert _error(state, 1, bid(4)).code == "action_not_allowed"
    assert _error(state, 1, choose("The Author")).code == "action_not_allowed"
    state, _ = act(state, (1, take_one("The Author")))
    assert _error(state, 0, TAKE_ALL).code == "action_not_allowed"


def test_a_card_that_is_not_on_offer_is_not_available():
    state, _ = table([10, 10, 10], deck_top=THREE_CARDS)
    state, _ = act(state, (0, bid(2)), (1, bid(3)), (2, PASS), (0, PASS))
    err = _error(state, 1, take_one("The Bard"))
    assert (err.code, err.field) == ("card_not_available", "card")
    state, _ = act(state, (1, take_one("The Author")))
    assert _error(state, 0, choose("The Author")).code == "card_not_available"


# --- Owed decisions and legal actions -----------------------------------------------


def test_each_decision_has_a_default_and_a_key_that_changes_once_made():
    state, _ = table([10, 10, 10], deck_top=THREE_CARDS)
    first = GAME.owed(state)
    assert [(o.seat, o.kind, o.default) for o in first] == [(0, "bid", {"type": "pass"})]
    state, _ = act(state, (0, bid(2)))
    assert GAME.owed(state)[0].key != first[0].key
    state, _ = act(state, (1, bid(3)), (2, PASS), (0, PASS))
    split = GAME.owed(state)
    # The Author alone (two suits, both counted) beats all three (six suits, three against)
    assert [(o.seat, o.kind, o.default) for o in split] == [
        (1, "split_choice", take_one("The Author"))
    ]
    state, _ = act(state, (1, take_one("The Desert")))
    pick = GAME.owed(state)
    assert [(o.seat, o.kind, o.default) for o in pick] == [
        (0, "card_choice", {"type": "choose", "card": "The Author"})
    ]
    assert len({first[0].key, split[0].key, pick[0].key}) == 3


def test_legal_bids_run_from_one_above_the_high_bid_to_the_bidders_coins():
    state, _ = table([10, 25, 10])
    state, _ = act(state, (0, bid(4)))
    bid_spec, pass_spec = GAME.legal(state, 1)
    assert bid_spec.schema["properties"]["amount"] == {
        "type": "integer",
        "minimum": 5,
        "maximum": 25,
    }
    assert bid_spec.schema["additionalProperties"] is False
    assert bid_spec.schema["properties"]["type"] == {"const": "bid"}
    assert [c["amount"] for c in bid_spec.choices] == list(range(5, 26))  # up to 200 listed
    assert pass_spec.choices == [PASS]
    assert GAME.legal(state, 0) == [] and GAME.legal(state, 2) == []
    state, _ = act(state, (1, bid(6)))
    assert [c["amount"] for c in GAME.legal(state, 2)[0].choices] == [7, 8, 9, 10]


def test_the_winners_choices_list_every_card_on_offer():
    state, _ = table([10, 10, 10], deck_top=THREE_CARDS)
    state, _ = act(state, (0, bid(2)), (1, PASS), (2, PASS))
    take_all, one = GAME.legal(state, 0)
    assert take_all.choices == [TAKE_ALL]
    assert one.choices == [take_one(c) for c in ("The Author", "The Desert", "The Origin")]
    assert one.schema["properties"]["card"]["enum"] == ["The Author", "The Desert", "The Origin"]


# --- Options, registry, protocol ----------------------------------------------------


def test_the_registry_finds_goblin_market_by_id():
    assert games.get("goblin-market") is GAME and games.REGISTRY["goblin-market"] is GAME
    assert games.get("no-such-game") is None
    assert GAME.names == {"en": "Goblin Market", "es": "El Mercado de los Duendes"}
    assert (GAME.min_players, GAME.max_players, GAME.rules_version) == (3, 6, 3)
    assert GAME.options_schema["additionalProperties"] is False


def test_options_get_defaults_and_bad_values_name_their_field():
    assert GAME.normalize_options({}, 4) == {"edition": "en", "courts": True}
    assert GAME.normalize_options({"edition": "es", "courts": False}, 3) == {
        "edition": "es",
        "courts": False,
    }
    for options, players, field in [
        ({"speed": 1}, 3, "speed"),
        ({"edition": "fr"}, 3, "edition"),
        ({"courts": "yes"}, 3, "courts"),
        ({}, 2, "players"),
        ({}, 7, "players"),
    ]:
        with pytest.raises(OptionError) as err:
            GAME.normalize_options(options, players)
        assert err.value.field == field


def test_setup_opens_the_first_auction_for_the_first_seat_in_order():
    events = GAME.setup({}, (4, 2, 0, 1), Rng(b"order"))
    state = None
    for ev in events:
        state = GAME.evolve(state, ev)
    assert state.order == (4, 2, 0, 1) and state.coins == (10, 10, 10, 10)
    assert [o.seat for o in GAME.owed(state)] == [4]
    assert [ev.type.split(".")[1] for ev in events][:3] == [
        "GameStarted",
        "DecksShuffled",
        "CoinsDealt",
    ]


def test_events_survive_a_json_round_trip():
    rng = Rng(b"json")
    events = GAME.setup({}, (0, 1, 2), rng)
    state = None
    for ev in events:
        state = GAME.evolve(state, ev)
    state, more = act(state, (0, bid(2)), (1, PASS), (2, PASS), rng=rng)
    if GAME.owed(state)[0].kind == "split_choice":
        state, tail = act(state, (0, TAKE_ALL), rng=rng)
        more += tail
    replayed = None
    for ev in events + more:
        back = json.loads(json.dumps(ev.data))
        assert back == ev.data
        replayed = GAME.evolve(replayed, Event(ev.type, back, ev.visible_to))
    assert replayed == state


# --- Views --------------------------------------------------------------------------


def test_the_view_names_cards_in_the_viewers_language():
    state, _ = table([10, 10, 10], deck_top=["Ace of Moons", "The Bard"], owned={1: ["The Cave"]})
    es = GAME.view(state, 1, "es")
    en = GAME.view(state, None, "en")
    assert es["you"] == 1 and en["you"] is None
    assert es["auction"]["offer"] == [
        {
            "id": "The Bard",
            "name": "El Bardo",
            "rank": "Crown",
            "rank_name": "Corona",
            "suits": ["Suns"],
            "suit_names": ["Soles"],
        }
    ]
    assert es["auction"]["size_card"]["name"] == "As de Lunas"
    assert es["players"][1]["cards"][0]["suit_names"] == ["Olas", "Dragones"]
    assert en["auction"]["offer"][0]["name"] == "The Bard"
    assert en["auction_deck_size"] == 33 and en["goblin_deck_size"] == 8


def test_a_seat_sees_what_a_spectator_sees_apart_from_the_you_marker():
    state, _ = table([10, 10, 10], deck_top=THREE_CARDS)
    spectator = GAME.view(state, None, "en")
    for seat in (0, 1, 2):
        assert {**GAME.view(state, seat, "en"), "you": None} == spectator


def test_hidden_events_are_redacted_to_sizes():
    events = GAME.setup({}, (0, 1, 2), Rng(b"hidden"))
    hidden = [ev for ev in events if ev.visible_to != "all"]
    assert [ev.type for ev in hidden] == ["goblin-market.DecksShuffled"]
    for seat in (0, 1, 2, None):
        assert GAME.redact(hidden[0], seat) == {"auction_deck_size": 36, "goblin_deck_size": 8}
    public = events[0]
    assert GAME.redact(public, None) == public.data


def test_the_card_choice_default_is_the_card_that_leaves_the_choosers_score_highest():
    owned = {0: ["The Journey", "The Sailor", "The Mill"]}  # Waves, Leaves, Moons positive
    state, _ = table([10, 10, 10], deck_top=THREE_CARDS, owned=owned)
    state, _ = act(state, (0, bid(2)), (1, bid(3)), (2, PASS), (0, PASS))
    state, _ = act(state, (1, take_one("The Desert")))
    assert state.offer == ("The Author", "The Origin")  # The Author would score 0 for seat 0
    [decision] = GAME.owed(state)
    assert (decision.seat, decision.default) == (0, choose("The Origin"))


# --- Deadline default of the split choice (RULINGS: the score it leaves, ties to all) ---

ISSUE_33_HAND = ["The Mountain", "The Diplomat", "The Pact", "The Journey", "The Lunatic"]


def test_the_split_choice_default_is_the_choice_that_leaves_the_winners_score_highest():
    offer = ["The Battle", "The Soldier", "The Discovery"]
    state, _ = table([10, 10, 10], deck_top=["The Huntress", *offer], owned={0: ISSUE_33_HAND})
    state, _ = act(state, (0, bid(2)), (1, PASS), (2, PASS))
    [decision] = GAME.owed(state)
    assert (decision.seat, decision.kind) == (0, "split_choice")
    # taking all leaves 8 points, The Discovery alone 12: the default keeps The Discovery
    assert decision.default == take_one("The Discovery")
    state, events = act(state, (0, decision.default))
    assert only(events, "CardsTaken") == [{"seat": 0, "cards": ["The Discovery"], "paid": 2}]
    assert score_cards(0, state.owned[0]).score == 12


def test_the_split_choice_default_takes_all_when_no_single_card_scores_more():
    offer = ["The Battle", "The Soldier", "The Discovery"]
    state, _ = table([10, 10, 10], deck_top=["The Huntress", *offer])
    state, _ = act(state, (0, bid(2)), (1, PASS), (2, PASS))
    taken_all = score_cards(0, offer).score
    assert taken_all >= max(score_cards(0, [card]).score for card in offer)
    [decision] = GAME.owed(state)
    assert decision.default == TAKE_ALL

"""Sorcerous Futures' interface: action checks and error codes, owed decisions, views."""

from __future__ import annotations

import json

import pytest

from games.base import ALL, Event, InvalidAction, NotYourTurn, RuleViolation
from games.rng import NoRng, Rng
from games.sorcerous_futures import GAME
from tests.games.sorcerous_futures_table import (
    PASS,
    act,
    bid,
    sealed,
    start,
    table,
)


def _error(state, seat, action) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        GAME.decide(state, seat, action, NoRng())
    return err.value


@pytest.mark.parametrize(
    ("action", "field"),
    [
        ("bid", "type"),
        ({}, "type"),
        ({"type": "raise"}, "type"),
        ({"type": 7}, "type"),
        ({"type": "start_auction", "card": "The Forest"}, "format"),
        ({"type": "start_auction", "card": "The Forest", "format": "dutch"}, "format"),
        ({"type": "start_auction", "card": 3, "format": "open"}, "card"),
        ({"type": "bid"}, "amount"),
        ({"type": "bid", "amount": True}, "amount"),
        ({"type": "sealed_bid", "amount": 2.0}, "amount"),
        ({"type": "pass", "amount": 3}, "amount"),
        ({"type": "give_crown", "crown": "The Bard"}, "seat"),
        ({"type": "keep_crown", "crown": None}, "crown"),
        ({"type": "random_crowns", "seed": 1}, "seed"),
    ],
)
def test_a_malformed_action_is_invalid_and_names_its_field(action, field):
    state, _ = table()
    err = _error(state, 0, action)
    assert isinstance(err, InvalidAction) and err.code == "invalid_action" and err.field == field


def test_acting_out_of_turn_is_refused():
    state, _ = table()
    err = _error(state, 1, start("The Forest", "closed"))
    assert isinstance(err, NotYourTurn) and err.code == "not_your_turn"
    assert _error(state, 9, PASS).code == "not_your_turn"
    assert _error(state, 9, sealed(0)).code == "not_your_turn"


def test_an_action_of_the_wrong_kind_is_not_allowed():
    state, _ = table()
    assert _error(state, 0, bid(5)).code == "action_not_allowed"
    assert _error(state, 0, {"type": "random_crowns"}).code == "action_not_allowed"
    state, _ = act(state, (0, start("The Forest", "open")))
    assert _error(state, 1, start("The Forest", "open")).code == "action_not_allowed"


def test_a_card_that_is_not_in_the_row_is_not_available():
    state, _ = table()
    err = _error(state, 0, start("The Pact", "closed"))
    assert (err.code, err.field) == ("card_not_available", "card")


def test_decisions_have_defaults_and_keys_that_change_once_made():
    state, _ = table()
    (owed,) = GAME.owed(state)
    assert owed.default == start("The Mountain", "closed")
    state, _ = act(state, (0, start("The Forest", "open")))
    (first,) = GAME.owed(state)
    assert first.default == PASS and first.kind == "bid"
    state, _ = act(state, (1, PASS))
    (second,) = GAME.owed(state)
    assert second.key != first.key and second.seat == 2
    state, _ = act(state, (2, PASS))
    (after,) = GAME.owed(state)
    assert after.kind == "auction" and after.key != owed.key
    assert all(
        set(o.key) <= set("abcdefghijklmnopqrstuvwxyz0123456789-_") for o in (owed, first, after)
    )


def test_the_default_of_the_auction_choice_is_a_closed_auction_of_the_first_card():
    state, _ = table()
    (owed,) = GAME.owed(state)
    state, events = act(state, (0, owed.default))
    assert events[0].data == {"seat": 0, "card": "The Mountain", "format": "closed"}
    for o in GAME.owed(state):
        state, _ = act(state, (o.seat, o.default))
    winner = GAME.resolve(state, NoRng())[1].data
    assert winner == {"seat": 0, "card": "The Mountain", "amount": 0, "format": "closed"}


def test_resolve_refuses_a_phase_that_is_not_ready():
    state, _ = table()
    with pytest.raises(RuleViolation):
        GAME.resolve(state, NoRng())


def test_the_view_names_cards_in_the_viewers_language():
    state, _ = table()
    es = GAME.view(state, 0, "es")
    assert es["row"][0]["name"] == "La Montaña" and es["row"][0]["id"] == "The Mountain"
    assert es["players"][0]["aces"][0]["name"] == "As de Lunas"
    assert es["players"][0]["crown"]["name"] == "El Mar"
    assert GAME.view(state, 0, "en")["players"][0]["crown"]["name"] == "The Sea"
    assert GAME.names == {"en": "Sorcerous Futures", "es": "Sorcerous Futures"}


def test_the_view_shows_public_facts_to_everyone():
    state, _ = table()
    state, _ = act(state, (0, start("The Forest", "open")), (1, bid(8)))
    for seat in (0, 1, 2, None):
        view = GAME.view(state, seat, "en")
        assert view["you"] == seat
        assert [p["gold"] for p in view["players"]] == [90, 90, 90]
        assert view["auction"]["card"]["id"] == "The Forest"
        assert view["auction"]["bids"] == [{"seat": 0, "amount": 5}, {"seat": 1, "amount": 8}]
        assert view["auction"]["to_act"] == 2 and view["owed"] == [{"seat": 2, "kind": "bid"}]
        assert [c["id"] for c in view["row"]] == [
            "The Mountain",
            "The Watchman",
            "The Sailor",
            "The Battle",
        ]
        assert view["deck_size"] == 16 and view["group"] == 1 and view["active"] == 0


def test_hidden_events_are_redacted_to_their_public_part():
    cases = [
        ("DeckShuffled", {"cards": ["The Pact", "The Mill"]}, {"size": 2}),
        (
            "CrownsPassed",
            {"from": 0, "to": 2, "crowns": ["The Bard"]},
            {"from": 0, "to": 2, "count": 1},
        ),
        ("CrownGiven", {"seat": 2, "crown": "The Bard", "random": False}, {"seat": 2}),
        ("ValuationDealt", {"under": "Ace of Suns", "card": "The Pact"}, {"under": "Ace of Suns"}),
        ("SealedBidSubmitted", {"seat": 1, "amount": 40}, {"seat": 1}),
        ("ValuationCardsShuffled", {"cards": ["The Pact"]}, {"size": 1}),
    ]
    for name, data, public in cases:
        ev = Event(f"sorcerous-futures.{name}", data, (1,))
        assert GAME.redact(ev, 0) == public
        assert GAME.redact(ev, None) == public
        assert GAME.redact(ev, 1) == data
    shown = Event("sorcerous-futures.RowDealt", {"group": 1, "cards": ["The Pact"]}, ALL)
    assert GAME.redact(shown, None) == shown.data


def test_events_survive_a_json_round_trip():
    events = GAME.setup({"sly_excuse": True}, (3, 1, 0, 2), Rng(b"json"))
    plain = GAME.setup({"sly_excuse": True}, (3, 1, 0, 2), Rng(b"json"))
    state = trip = None
    for ev, again in zip(events, plain, strict=True):
        state = GAME.evolve(state, ev)
        data = json.loads(json.dumps(again.data))
        trip = GAME.evolve(trip, Event(again.type, data, again.visible_to))
    assert state == trip
    holder = state.excuse_holder
    more = GAME.decide(state, holder, {"type": "random_crowns"}, Rng(b"more"))
    for ev in more:
        state = GAME.evolve(state, ev)
        trip = GAME.evolve(trip, Event(ev.type, json.loads(json.dumps(ev.data)), ev.visible_to))
    assert state == trip and state.phase == "choose"


def test_unknown_events_leave_the_state_unchanged():
    state, _ = table()
    assert GAME.evolve(state, Event("goblin-market.BidPlaced", {"seat": 0})) is state

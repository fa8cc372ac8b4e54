"""Sorcerous Futures setup: options, Aces, the three-player crown ritual, valuations."""

from __future__ import annotations

from collections import Counter

import pytest

from games.base import ALL, OptionError
from games.decktet import cards
from games.rng import Rng
from games.sorcerous_futures import GAME
from games.sorcerous_futures.state import EXCUSE, valuation_cards
from tests.games.sorcerous_futures_table import SUIT_OF, aces_of, act, names, only, set_up

# --- Options ------------------------------------------------------------------------


def test_options_default_to_the_plain_game():
    assert GAME.normalize_options({}, 3) == {"sly_excuse": False}
    assert GAME.normalize_options({"sly_excuse": True}, 4) == {"sly_excuse": True}


@pytest.mark.parametrize(
    ("options", "players", "field"),
    [
        ({"sly_excuse": True}, 3, "sly_excuse"),
        ({"sly_excuse": "yes"}, 4, "sly_excuse"),
        ({"sly": True}, 4, "sly"),
        ({}, 2, "players"),
        ({}, 5, "players"),
        ([], 3, "options"),
    ],
)
def test_bad_options_name_their_field(options, players, field):
    with pytest.raises(OptionError) as err:
        GAME.normalize_options(options, players)
    assert err.value.field == field


def test_the_options_schema_describes_the_variant():
    schema = GAME.options_schema
    assert schema["additionalProperties"] is False
    assert schema["properties"]["sly_excuse"] == {
        **schema["properties"]["sly_excuse"],
        "type": "boolean",
        "default": False,
    }
    assert (GAME.min_players, GAME.max_players, GAME.rules_version) == (3, 4, 1)


# --- Three players: Aces, Excuse, ritual ----------------------------------------------


def test_three_players_get_two_face_up_aces_each_and_the_excuse_stays_at_the_edge():
    state, events = set_up(3, 1)
    dealt = only(events, "AcesDealt")[0]["aces"]
    assert [len(d["aces"]) for d in dealt] == [2, 2, 2]
    assert sorted(a for d in dealt for a in d["aces"]) == sorted(
        n for n, c in cards().items() if c.rank == "Ace"
    )
    assert only(events, "ExcusePlaced") == [{"seat": None}]
    assert state.excuse_holder is None
    ev = next(e for e in events if e.type.endswith(".AcesDealt"))
    assert ev.visible_to == ALL


@pytest.mark.parametrize("seed", range(200))
def test_the_ritual_never_gives_a_seat_a_crown_matching_its_aces(seed):
    order = tuple(Rng(str(seed).encode()).shuffle(range(3)))
    state, _ = set_up(3, seed, order)
    for seat in range(3):
        assert SUIT_OF[state.crowns[seat]] not in aces_of(state, seat)
    assert len(set(state.crowns)) == 3 and len(state.set_aside) == 3


def test_the_ritual_passes_right_then_left_then_right_and_each_keeps_one():
    order = (2, 0, 1)  # RULINGS, in the ritual: right of 2 is 0 (next), left of 2 is 1
    _, events = set_up(3, 7, order)
    passes = [(d["from"], d["to"], len(d["crowns"])) for d in only(events, "CrownsPassed")]
    right = {2: 0, 0: 1, 1: 2}
    left = {2: 1, 0: 2, 1: 0}
    assert passes == [
        *[(s, right[s], 2) for s in order],
        *[(s, left[s], 1) for s in order],
        *[(s, right[s], 2) for s in order],
    ]
    assert names(events).count("CrownsShuffled") == 12
    first = only(events, "CrownsTaken")[0]["crowns"]
    assert first[0]["seat"] == 2 and len(first) == 3


def test_every_ritual_step_is_hidden_and_each_crown_is_seen_by_its_owner_only():
    state, events = set_up(3, 3)
    for ev in events:
        name = ev.type.split(".", 1)[1]
        if name in ("CrownsShuffled", "CrownsPassed", "CrownsSetAside"):
            assert ev.visible_to == ()
            assert "crowns" not in GAME.redact(ev, 0)
        if name == "CrownKept":
            assert ev.visible_to == (ev.data["seat"],)
            other = (ev.data["seat"] + 1) % 3
            assert GAME.redact(ev, other) == {"seat": ev.data["seat"]}
    for seat in range(3):
        view = GAME.view(state, seat, "en")
        shown = {p["seat"]: p["crown"] for p in view["players"]}
        assert shown[seat]["id"] == state.crowns[seat]
        assert all(shown[s] is None for s in range(3) if s != seat)
        assert view["set_aside_crowns"] is None
    assert all(p["crown"] is None for p in GAME.view(state, None, "en")["players"])


def test_the_holder_of_the_ace_of_suns_is_the_first_active_player():
    for seed in range(10):
        for players in (3, 4):
            state, events = set_up(players, seed)
            if players == 4:
                state, events = act(
                    state, (state.excuse_holder, {"type": "random_crowns"}), rng=Rng(b"x")
                )
            first = next(s for s in range(players) if "Ace of Suns" in state.aces[s])
            assert only(events, "TurnStarted") == [{"seat": first, "number": 1}]
            assert GAME.owed(state)[0].seat == first


# --- Valuations ----------------------------------------------------------------------


def test_one_valuation_card_lies_under_each_ace_and_the_excuse_and_the_rest_is_the_deck():
    state, events = set_up(3, 5)
    dealt = only(events, "ValuationDealt")
    assert [d["under"] for d in dealt] == [*state.aces[0], *state.aces[1], *state.aces[2], EXCUSE]
    assert Counter([d["card"] for d in dealt] + list(state.row) + list(state.deck)) == Counter(
        valuation_cards()
    )
    assert len(state.deck) == 28 - 7 - 5
    assert all(cards()[c].rank not in ("Court", "Crown", "Ace") for c in state.deck)


def test_each_seat_sees_only_the_cards_under_its_own_aces():
    state, events = set_up(3, 5)
    for ev in events:
        if ev.type.endswith(".ValuationDealt"):
            under = ev.data["under"]
            owner = next((s for s in range(3) if under in state.aces[s]), None)
            assert ev.visible_to == (() if owner is None else (owner,))
            assert GAME.redact(ev, None) == {"under": under}
    for seat in range(3):
        shown = GAME.view(state, seat, "en")["valuations"]
        for spot in shown:
            assert (spot["card"] is not None) == (spot["seat"] == seat)
    assert all(spot["card"] is None for spot in GAME.view(state, None, "en")["valuations"])


def test_the_deck_order_is_secret_and_redacted_to_its_size():
    _, events = set_up(3, 5)
    ev = next(e for e in events if e.type.endswith(".DeckShuffled"))
    assert ev.visible_to == () and GAME.redact(ev, 0) == {"size": 28}

"""Every game declares its events once (games/<game>/events.py): what the rules emit, what
`evolve` applies and what `redact` shows all follow that declaration."""

from __future__ import annotations

import importlib

import pytest

import games
from games.base import ALL, Event
from games.catalog import EventCatalog, EventType, unchanged
from tests.games.playout import playout

RULESETS = sorted(games.REGISTRY)


def declared(ruleset: str) -> EventCatalog:
    """Return the event catalog of a registered game."""
    return importlib.import_module(f"games.{ruleset.replace('-', '_')}.events").EVENTS


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_event_a_playout_produces_is_declared_with_its_fields(ruleset):
    game, catalog = games.get(ruleset), declared(ruleset)
    for players, seed in ((game.min_players, 1), (game.max_players, 2)):
        for ev in playout(game, players, seed).events:
            prefix, _, name = ev.type.partition(".")
            assert prefix == ruleset and name in catalog.types, ev.type
            spec = catalog.types[name]
            assert set(ev.data) <= set(spec.fields), (ev.type, sorted(ev.data))
            if ev.visible_to != ALL:
                assert spec.secret, f"{ev.type} is secret but not declared so"
                public = set(spec.public) | {key for key, _ in spec.sizes}
                assert set(game.redact(ev, None)) <= public, ev.type


@pytest.mark.parametrize("ruleset", RULESETS)
def test_evolve_handles_exactly_the_declared_events(ruleset):
    game = games.get(ruleset)
    assert set(game.evolve.handlers) == set(declared(ruleset).types)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_undeclared_event_type_leaves_the_state_unchanged(ruleset):
    game = games.get(ruleset)
    state = playout(game, game.min_players, 5).state
    for kind in (f"{ruleset}.NoSuchEvent", "other-game.GameStarted"):
        assert game.evolve(state, Event(kind, {"seat": 0})) is state


CATALOG = EventCatalog("demo", {"Dealt": EventType(("cards",)), "Noted": EventType(())})


def test_building_an_undeclared_event_fails():
    assert CATALOG.event("Dealt", cards=[]).type == "demo.Dealt"
    with pytest.raises(KeyError, match="declares no event 'Drawn'"):
        CATALOG.event("Drawn", cards=[])


def test_a_handler_table_must_match_the_declaration():
    with pytest.raises(TypeError, match=r"no handler for \['Noted'\]"):
        CATALOG.evolver({"Dealt": unchanged})
    with pytest.raises(TypeError, match=r"undeclared \['Drawn'\]"):
        CATALOG.evolver({"Dealt": unchanged, "Noted": unchanged, "Drawn": unchanged})


def test_a_secret_event_is_redacted_to_its_declared_public_part():
    catalog = EventCatalog(
        "demo", {"Hand": EventType(("seat", "cards"), "the seat", ("seat",), (("count", "cards"),))}
    )
    ev = catalog.event("Hand", (1,), seat=1, cards=["a", "b"])
    assert catalog.redact(ev, 1) == {"seat": 1, "cards": ["a", "b"]}
    assert catalog.redact(ev, 0) == catalog.redact(ev, None) == {"seat": 1, "count": 2}

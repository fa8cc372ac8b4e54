"""Every notification type has a name in each language, the same in the web client's
settings (api/static/app/i18n.js) and on the pages an e-mail's links open."""

from __future__ import annotations

import importlib
import re

from service.notify import types
from tests.conftest import ROOT


def test_every_type_is_named_in_both_languages_as_the_web_client_names_it():
    js = (ROOT / "api" / "static" / "app" / "i18n.js").read_text("utf-8")
    spanish = js.index('type_your_turn: "Tu turno"')
    web = [
        dict(re.findall(r'type_(\w+): "([^"]+)"', part)) for part in (js[:spanish], js[spanish:])
    ]
    for name in types.NAMES:
        assert types.LABELS[name] == (web[0][name], web[1][name]), name
    assert set(types.LABELS) == set(types.NAMES)


def test_a_decision_is_named_in_words_the_web_client_uses_for_every_game():
    js = (ROOT / "api" / "static" / "app" / "words_table.js").read_text("utf-8")
    spanish = js.index('kind_bid: "pujar"')
    web = [
        dict(re.findall(r'kind_(\w+): "([^"]+)"', part)) for part in (js[:spanish], js[spanish:])
    ]
    assert {k: (web[0][k], web[1][k]) for k in web[0]} == types.KIND_WORDS
    for game in ("goblin_market", "sorcerous_futures", "black_market", "gobcon"):
        actions = importlib.import_module(f"games.{game}.actions")
        kinds = set(actions.ANSWERS) | set(getattr(actions, "KINDS", {}).values())
        assert kinds <= set(types.KIND_WORDS), (game, kinds - set(types.KIND_WORDS))


def test_a_turn_message_names_the_decision_in_the_players_language():
    note = {"type": "your_turn", "kind": "split_choice", "ruleset": "goblin-market"}
    assert types.render(note, "es")[1] == "Una decisión te espera: quedarse las cartas."
    assert types.render(note, "en")[1] == "A decision waits for you: take the cards."
    assert "(bid)" not in types.render({**note, "kind": "bid"}, "es")[1]


def test_every_decision_is_named_by_what_the_player_does():
    """'A decision waits for you: turn.' said nothing: each kind is something to do."""
    for game in ("gobcon", "sorcerous-futures"):
        for kind in ("turn", "sealed_bid"):
            note = {"type": "your_turn", "kind": kind, "ruleset": game}
            assert types.render(note, "en")[1] in (
                "A decision waits for you: play a turn.",
                "A decision waits for you: place a sealed bid.",
            )
    note = {"type": "your_turn", "kind": "turn", "ruleset": "gobcon"}
    assert types.render(note, "es")[1] == "Una decisión te espera: jugar un turno."

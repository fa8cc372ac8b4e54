"""Every card of every ruleset has a display name and a short rules text in English and
Spanish, as data (issue #15 point 7)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import games
from games.black_market.data import cards as information_cards
from games.gobcon.catalogue import card_catalogue as gobcon_catalogue

DATA = Path(games.__file__).parent / "data"
LANGS = ("en", "es")


@pytest.mark.parametrize("ruleset", sorted(games.REGISTRY))
def test_every_card_of_every_ruleset_has_a_name_and_a_text_in_english_and_spanish(ruleset):
    game = games.REGISTRY[ruleset]
    english = game.card_catalogue(None, "en")
    spanish = game.card_catalogue(None, "es")
    assert english, ruleset
    assert [c["id"] for c in english] == [c["id"] for c in spanish]
    for en, es in zip(english, spanish, strict=True):
        for card in (en, es):
            assert card["name"].strip() and len(card["text"]) >= 20, card
            assert "{" not in card["text"], card  # every placeholder filled in
    # the two languages really differ: texts are translated, not copied
    assert all(en["text"] != es["text"] for en, es in zip(english, spanish, strict=True))


def test_the_gobcon_deck_file_holds_a_name_and_a_text_in_both_languages_for_every_entry():
    deck = json.loads((DATA / "gobcon_deck.json").read_text("utf-8"))
    for entry in deck["cards"]:
        for field in ("name", "text"):
            assert set(entry[field]) == set(LANGS), (entry["id"], field)
            assert all(entry[field][lang].strip() for lang in LANGS), (entry["id"], field)
        assert entry["text"]["en"] != entry["text"]["es"], entry["id"]


def test_black_markets_information_cards_have_names_and_texts_in_both_languages():
    for card in information_cards().values():
        assert set(card.names) == set(LANGS) and set(card.text) == set(LANGS), card.id
        assert card.text["en"] != card.text["es"], card.id


def test_the_decktet_catalogues_cover_each_game_deck_with_texts_saying_what_the_card_does():
    goblin = {c["id"]: c for c in games.REGISTRY["goblin-market"].card_catalogue(None, "es")}
    assert len(goblin) == 36 + 4 + 4  # auction deck, Pawns, Courts
    author = goblin["The Author"]
    assert author["name"] == "El Autor" and author["suit_names"] == ["Lunas", "Nudos"]
    assert "Lunas y Nudos" in author["text"] and "dos cartas" in author["text"]
    no_courts = games.REGISTRY["goblin-market"].card_catalogue({"courts": False}, "en")
    assert len(no_courts) == 40
    futures = {c["id"]: c for c in games.REGISTRY["sorcerous-futures"].card_catalogue(None, "en")}
    assert len(futures) == 6 + 24 + 4 + 6 + 1  # Aces, numbers, Pawns, Crowns, the Excuse
    assert "starts at 10" in futures["The Borderland"]["text"]


def test_a_gobcon_card_loaded_without_a_text_gets_one_from_its_figures():
    deck = json.loads((DATA / "gobcon_deck.json").read_text("utf-8"))
    for entry in deck["cards"]:
        entry.pop("text")
    options = games.REGISTRY["gobcon"].normalize_options({"deck": deck}, 3)
    by_id = {c["id"]: c for c in gobcon_catalogue(options, "es")}
    assert by_id["terrain-set"]["text"] == "Objeto · 3D · +2 PG"
    assert by_id["skirmish"]["text"].startswith("Juego · 3D · darth -1")

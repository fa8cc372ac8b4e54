"""Black Market information cards: behaviour comes from the card data, never from card ids."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from games.black_market import GAME, data
from games.black_market.data import CARD_IDS
from games.black_market.scoring import scores, tie_key
from games.black_market.state import effect
from games.rng import Rng
from tests.games.black_market_table import arrange, fold, started

PACKAGE = Path(data.__file__).resolve().parent


class FloodedFirst(Rng):
    """A seeded Rng that puts Flooded Market on top of the information deck."""

    def shuffle(self, items):
        out = super().shuffle(items)
        if "flooded_market" in out:
            out.remove("flooded_market")
            out.insert(0, "flooded_market")
        return out


def _names(events):
    return [ev.type.split(".", 1)[1] for ev in events]


def test_the_card_revealed_at_setup_leaves_the_setup_alone_and_takes_effect_in_round_one():
    events = GAME.setup({}, (0, 1, 2), FloodedFirst(b"setup"))
    kinds = _names(events)
    drawn = next(ev.data for ev in events if ev.type.endswith(".ExchangeValuesDrawn"))
    assert sorted(drawn["rows"].values()) == [2, 3, 4, 5, 6, 7]
    top = next(c for c, row in drawn["rows"].items() if row == 7)
    assert kinds.index("CardRevealed") < kinds.index("RoundStarted")
    assert kinds.index("RoundStarted") < kinds.index("ExchangeValueMoved")
    assert kinds.index("ExchangeValueMoved") < kinds.index("GoodsOffered")
    moved = next(ev.data for ev in events if ev.type.endswith(".ExchangeValueMoved"))
    assert (moved["colour"], moved["row"], moved["reason"]) == (top, 6, "flooded_market")
    offered = next(ev.data for ev in events if ev.type.endswith(".GoodsOffered"))
    assert offered["offer"][top] == 4  # L6 puts four goods on offer, L7 only three
    assert fold(events).rows[data.COLOURS.index(top)] == 6


def test_no_information_card_is_special_cased_by_its_id_in_code():
    for source in PACKAGE.glob("*.py"):
        text = source.read_text("utf-8")
        for card in CARD_IDS:
            assert f'"{card}"' not in text, f"{source.name} names the card {card}"


@pytest.fixture
def edited_cards(monkeypatch):
    """Let a test edit the card file as an operator would; restore it afterwards."""
    raw = json.loads((data.DATA / "black_market_cards.json").read_text("utf-8"))
    edited = copy.deepcopy(raw)
    real_load = data._load

    def load(name):
        return edited if name == "black_market_cards.json" else real_load(name)

    monkeypatch.setattr(data, "_load", load)
    data.cards.cache_clear()
    yield {c["id"]: c for c in edited}
    monkeypatch.undo()
    data.cards.cache_clear()


def test_an_edited_card_file_changes_what_each_card_does(edited_cards):
    edited_cards["grannys_basement"]["effect"] = {"game_tie": True}
    edited_cards["notary"]["effect"] = {"production_limit": 1}
    state = arrange(started(3), cards={0: ["grannys_basement"], 1: ["notary"]})
    assert effect(state, 0, "game_tie") and not effect(state, 1, "game_tie")
    assert [tie_key(state, s)[1] for s in scores(state)] == [1, 0, 0]
    produce = next(s for s in GAME.legal(state, 1) if s.type == "produce")
    assert produce.schema["properties"]["goods"]["maxItems"] == 5

"""Every field of every game's view has a Spanish name: the replay viewer draws a view field
by field (api/static/shared/draw.js), and a key with no word in api/static/app/words_es.js
showed in English on the Spanish page ("Suits" beside "Monedas")."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import REGISTRY
from tests.conftest import ROOT
from tests.games.playout import playout

ES = (ROOT / "api/static/app/words_es.js").read_text("utf-8")
NAMED = set(re.findall(r"(?:\b|\")([A-Za-z0-9_]+)\"?: \"", ES))


def _card(value: dict) -> bool:
    """A card, which draw.js draws as a card, not field by field (its isCard)."""
    return ("id" in value or "name" in value) and (
        isinstance(value.get("suits"), list)
        or "rank" in value
        or (isinstance(value.get("text"), str) and isinstance(value.get("name"), str))
    )


def _keys(value: Any, out: set[str]) -> None:
    if isinstance(value, dict) and _card(value):
        return
    if isinstance(value, dict):
        for k, v in value.items():
            if not k.isdigit():
                out.add(k)
            if k != "suits":  # a tally by suit, drawn as the suits' marks
                _keys(v, out)
    elif isinstance(value, list):
        for v in value:
            _keys(v, out)


@pytest.mark.parametrize("ruleset", sorted(REGISTRY))
def test_every_field_of_a_view_has_a_spanish_name(ruleset):
    game = REGISTRY[ruleset]
    keys: set[str] = set()
    states: list[Any] = []
    run = playout(game, game.min_players, 1, after_each=lambda r: states.append(r.state))
    for state in [*states[:: max(1, len(states) // 12)], run.state]:
        for seat in [None, *range(game.min_players)]:
            _keys(game.view(state, seat, "es"), keys)
    keys -= {"game", "name", "you", "owed"}  # drawn elsewhere (draw.js SHOWN_ELSEWHERE)
    missing = sorted(keys - NAMED)
    assert not missing, f"{ruleset}: view fields with no Spanish name: {missing}"

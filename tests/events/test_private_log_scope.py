"""Which games keep a private log: only those whose rules keep one and whose options use
it. A regulated Black Market game's stays empty, so its streams do not follow it and a
process folds its record from the entries its streams received instead of loading it."""

from __future__ import annotations

import pytest

import games
from events.record import Record
from service.private_stream import follows


@pytest.mark.parametrize(
    ("ruleset", "version", "options", "keeps"),
    [
        ("black-market", 3, {"trade": "wild"}, True),
        ("black-market", 3, {"trade": "regulated"}, False),
        ("black-market", 2, {"trade": "wild"}, False),  # offers inline then, not private
        ("goblin-market", None, {}, False),
        ("gobcon", None, {}, False),
    ],
)
def test_a_game_keeps_a_private_log_only_when_its_rules_and_options_use_one(
    ruleset, version, options, keeps
):
    game = games.get(ruleset, version)
    normalized = game.normalize_options(options, 3)
    rec = Record("g", ruleset=ruleset, rules_version=game.rules_version, options=normalized)
    assert rec.keeps_private_log is keeps
    assert follows(rec, "p_someone") is keeps
    assert follows(rec, None) is False  # an anonymous caller never follows it

"""Every archived rules version still plays: games played under it replay and verify."""

from __future__ import annotations

import pytest

import games
from tests.games.playout import playout


@pytest.mark.parametrize("key", sorted(games.ARCHIVE), ids=lambda k: f"{k[0]}-v{k[1]}")
def test_an_archived_rules_version_still_plays_a_whole_game_with_its_invariants(key):
    ruleset, version = key
    game = games.get(ruleset, version)
    assert game.id == ruleset and game.rules_version == version
    assert games.get(ruleset).rules_version > version, "the live rules moved on"
    run = playout(game, game.min_players + 1, 7, {}, lambda run: game.check_invariants(run.state))
    assert game.is_over(run.state)

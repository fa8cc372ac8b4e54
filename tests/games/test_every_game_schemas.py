"""Every game's `legal` schemas are exact: any value a schema admits is accepted."""

from __future__ import annotations

import random

import pytest

import games
from games import schemas
from games.base import RuleViolation
from games.rng import Rng
from tests.games.playout import playout

SAMPLES = 6  # values drawn from each schema at each state


def _check_every_schema_is_exact(run) -> None:
    game, state = run.game, run.state
    if game.is_over(state) or game.ready(state) is not None:
        return
    pick = random.Random(run.decisions)
    for seat in state.order:
        for spec in game.legal(state, seat):
            for _ in range(SAMPLES):
                action = schemas.value_for(spec.schema, pick)
                try:
                    game.decide(state, seat, action, Rng(b"probe"))
                except RuleViolation as err:
                    pytest.fail(f"{game.id}: legal admits {action} for seat {seat}: {err}")
            for choice in spec.choices or ():
                game.decide(state, seat, choice, Rng(b"probe"))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("ruleset", sorted(games.REGISTRY))
def test_every_value_a_legal_schema_admits_is_accepted_by_decide(ruleset, seed):
    game = games.get(ruleset)
    for players in (game.min_players, game.max_players):
        playout(game, players, seed, after_each=_check_every_schema_is_exact)

"""Properties every game must have, checked over the whole registry."""

import json

import pytest

import games
from games.rng import Rng
from tests.games.playout import json_round_trip, playout


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", sorted(games.REGISTRY))
def test_every_prefix_of_a_game_can_be_viewed_by_everyone(ruleset):
    """Time travel shows the state after any event, even halfway through a command."""
    game = games.get(ruleset)
    run = playout(game, game.max_players, seed=3)
    state = None
    for event in run.events:
        state = game.evolve(state, json_round_trip(event))
        for seat in (None, *range(game.max_players)):
            json.dumps(game.view(state, seat, "en"))
            json.dumps(game.view(state, seat, "es"))


@pytest.mark.parametrize("ruleset", sorted(games.REGISTRY))
def test_setup_draws_only_from_the_rng_it_is_given(ruleset):
    game = games.get(ruleset)
    options = game.normalize_options({}, game.min_players)
    order = tuple(range(game.min_players))
    first = game.setup(options, order, Rng(b"same seed"))
    again = game.setup(options, order, Rng(b"same seed"))
    assert [(e.type, e.data) for e in first] == [(e.type, e.data) for e in again]

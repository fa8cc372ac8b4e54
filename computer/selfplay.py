"""Whole games played in one process on the pure rules: the search's playouts, the
bench's games and the tests' tables all run through `play`."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.base import ActionSpec, Event, Game
from games.rng import Rng

# a player: (state, seat, its legal actions) -> one of them
Chooser = Callable[[Any, int, list[ActionSpec]], dict[str, Any]]


def fold(game: Game, state: Any, events: list[Event], after: Callable[[Any], None] | None = None):
    """Apply `events` to `state` (calling `after` on each new state); return the last."""
    for ev in events:
        state = game.evolve(state, ev)
        if after is not None:
            after(state)
    return state


def new_game(game: Game, players: int, rng: random.Random, draws: Rng, after=None) -> Any:
    """Return a new game's state: default options, a seating shuffled by `rng`."""
    order = tuple(rng.sample(range(players), players))
    return fold(game, None, game.setup(game.normalize_options({}, players), order, draws), after)


def play(
    game: Game,
    state: Any,
    choose: Chooser,
    rng: random.Random,
    draws: Rng,
    stop: Callable[[], bool] = lambda: False,
    steps: int | None = None,
    after: Callable[[Any], None] | None = None,
) -> Any:
    """Play on from `state`: a ready phase is resolved as a worker would, else a seat
    among those owing a decision (drawn by `rng`) acts as `choose` says; until the end,
    `stop()`, or `steps` decisions. Return the last state."""
    made = 0
    while not game.is_over(state) and not stop() and (steps is None or made < steps):
        if game.ready(state) is not None:
            state = fold(game, state, game.resolve(state, draws), after)
            continue
        owed = game.owed(state)
        if not owed:
            break
        seat = rng.choice(owed).seat
        specs = game.legal(state, seat)
        if not specs:
            break
        state = fold(
            game, state, game.decide(state, seat, choose(state, seat, specs), draws), after
        )
        made += 1
    return state

"""A random playout driver written only against the `Game` protocol, for every game.

`playout(game, players, seed)` sets a game up, then keeps picking a random seat among
those owed a decision and a random legal action for it, folding every event and
checking the game's invariants after each one, until the game is over.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games import schemas
from games.base import ActionSpec, Event, Game
from games.rng import Rng

MAX_DECISIONS = 10_000


@dataclass
class Playout:
    """Everything a finished playout leaves behind for the test to inspect."""

    game: Game
    order: tuple[int, ...]
    state: Any = None
    events: list[Event] = field(default_factory=list)
    decisions: int = 0


def random_action(specs: list[ActionSpec], pick: random.Random) -> dict[str, Any]:
    """Return a random action among `specs`: a listed choice, or one built from the schema."""
    return schemas.random_action([vars(s) for s in specs], pick)


def json_round_trip(ev: Event) -> Event:
    """Return `ev` as it comes back from storage: data through JSON, visible_to as a tuple."""
    visible = ev.visible_to if isinstance(ev.visible_to, str) else tuple(ev.visible_to)
    return Event(ev.type, json.loads(json.dumps(ev.data)), visible)


def apply(game: Game, run: Playout, events: list[Event]) -> None:
    """Fold `events` (through JSON) into the playout, checking invariants after each."""
    for ev in events:
        ev = json_round_trip(ev)
        run.state = game.evolve(run.state, ev)
        run.events.append(ev)
        game.check_invariants(run.state)


def playout(
    game: Game,
    players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    after_each: Callable[[Playout], None] | None = None,
    timeout_rate: float = 0.1,
) -> Playout:
    """Play one random game to its end and return what happened.

    A ready simultaneous phase is resolved as a worker would; `timeout_rate` of the
    simultaneous submissions are the seat's default action, as at a deadline."""
    pick = random.Random(seed)
    order = tuple(pick.sample(range(players), players))
    rng = Rng(f"playout-{seed}".encode())
    opts = game.normalize_options(options or {}, players)
    run = Playout(game, order)
    apply(game, run, game.setup(opts, order, rng))
    while not game.is_over(run.state):
        if game.ready(run.state) is not None:  # a simultaneous phase with every submission in
            apply(game, run, game.resolve(run.state, rng))
            continue
        owed = game.owed(run.state)
        assert owed, "the game is not over but nobody owes a decision"
        chosen = pick.choice(owed)
        if chosen.simultaneous and pick.random() < timeout_rate:
            apply(game, run, game.decide(run.state, chosen.seat, chosen.default, rng))
        else:
            action = random_action(game.legal(run.state, chosen.seat), pick)
            apply(game, run, game.decide(run.state, chosen.seat, action, rng))
        run.decisions += 1
        assert run.decisions < MAX_DECISIONS, "the game does not end"
        if after_each:
            after_each(run)
    return run

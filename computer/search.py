"""The strong level: information-set Monte Carlo search over the pure rules.

Each iteration draws one state among those the seat cannot tell from the real one
(computer.samplers: the hidden cards dealt again, consistently with everything the seat
has seen), picks one of the seat's candidate actions by UCB1 over the statistics of the
information set (so every sample shares one tree root, as in single-observer ISMCTS with
its tree cut at the seat's own decision), plays it on the sample with the game's own
`decide`, `ready` and `resolve`, and plays on to the end with every seat (this one
included) acting as the quick level would. The reward is 1 for a win (shared among
tied winners), plus a small part for a better place. An action the sample refuses (it
depended on a hidden card the sample placed elsewhere) is not counted for that sample.

When the budget is spent, the action tried most often is played. The search reads the
game only through the samples, its legal actions and the rules' functions; it keeps no
state between decisions, and needs no Redis, HTTP or RQ (pyproject's import-linter).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from computer.habits import HABITS
from computer.policies import quick
from computer.selfplay import fold, play
from games.base import ActionSpec, Game, RuleViolation
from games.rng import Rng

MAX_CANDIDATES = 24
AMOUNT_POINTS = 10  # the amounts an amount range is narrowed to
EXPLORE = 0.7  # UCB1's exploration constant (rewards lie in [0, 1.25])
MAX_PLAYOUT = 4000  # steps of one playout before it is scored as it stands
# games whose whole playouts are too long for a small budget: decisions a playout plays
# before it is scored by the standings as they stand (GobCon: a game of quick players is
# some 120 decisions, a third of it is a few turns each)
PLAYOUT_STEPS = {"gobcon": 40}
PLACE_SHARE = 0.25  # the part of the reward a better place earns, beside a win


@dataclass
class Arm:
    """One candidate action and what the samples said of it."""

    action: dict[str, Any]
    visits: int = 0
    total: float = 0.0
    available: int = 0  # samples in which it could be tried (ISMCTS's availability count)


@dataclass
class Searched:
    """A search's answer and what it cost."""

    action: dict[str, Any]
    iterations: int
    arms: list[Arm]


def _amounts(choices: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Narrow an amount range to its five lowest amounts and a spread up to its highest."""
    ordered = sorted(choices, key=lambda c: c["amount"])
    if len(ordered) <= AMOUNT_POINTS:
        return ordered
    low, rest = ordered[:5], ordered[5:]
    step = max(1, len(rest) // (AMOUNT_POINTS - 5))
    return low + rest[step - 1 :: step][: AMOUNT_POINTS - 5]


def candidates(specs: list[ActionSpec], rng: random.Random) -> list[dict[str, Any]]:
    """Return the actions the search weighs: every listed choice (amount ranges narrowed),
    and for an action too wide to list or one the quick level has a habit for
    (computer.habits: Black Market's production, deals, sales and bids), distinct values
    the quick level would pick."""
    out: list[dict[str, Any]] = []
    for spec in specs:
        if spec.type in HABITS and HABITS[spec.type](spec, rng) is not None:
            out += _quick_values(spec, rng)
        elif spec.choices and all(set(c) == {"type", "amount"} for c in spec.choices):
            out += _amounts(spec.choices)
        elif spec.choices:
            out += spec.choices
        else:
            out += _quick_values(spec, rng)
    if len(out) > MAX_CANDIDATES:
        out = rng.sample(out, MAX_CANDIDATES)
    return out


def _quick_values(spec: ActionSpec, rng: random.Random) -> list[dict[str, Any]]:
    """Return up to six distinct values of `spec` the quick level would pick."""
    seen: list[dict[str, Any]] = []
    for _ in range(16):
        value = quick([spec], rng)
        if value not in seen:
            seen.append(value)
        if len(seen) == 6:
            break
    return seen


def playout(
    game: Game, state: Any, rng: random.Random, draws: Rng, stop: Callable[[], bool]
) -> Any:
    """Play `state` on with every seat acting as the quick level; return the last state
    (the end, or where the step limit or the clock `stop` cut it)."""
    steps = PLAYOUT_STEPS.get(game.id, MAX_PLAYOUT)
    return play(game, state, lambda st, seat, specs: quick(specs, rng), rng, draws, stop, steps)


def reward(game: Game, state: Any, seat: int) -> float:
    """Return what a playout's last state is worth to `seat`: a win (shared among tied
    winners) and a small part for its place; a cut playout by the standings so far."""
    try:
        result = game.result(state)
    except Exception:  # a state some rules cannot score before the end
        return 0.5
    n = max(len(result.standings), 2)
    place = next((s.place for s in result.standings if s.seat == seat), n)
    won = 1.0 / len(result.winners) if seat in result.winners and game.is_over(state) else 0.0
    if not game.is_over(state):
        won = 1.0 / n if place == 1 else 0.0
    return won + PLACE_SHARE * (n - place) / (n - 1)


def search(
    game: Game,
    seat: int,
    specs: list[ActionSpec],
    sample: Callable[[random.Random], Any],
    budget_s: float,
    rng: random.Random,
    clock: Callable[[], float] = time.perf_counter,
    max_iterations: int | None = None,
) -> Searched:
    """Return the action of `seat` the search finds best within `budget_s` seconds of
    `clock` (or `max_iterations` samples), among `specs` (never empty); `sample(rng)`
    draws a state the seat cannot tell from the real one."""
    arms = [Arm(a) for a in candidates(specs, rng)]
    if len(arms) == 1:
        return Searched(arms[0].action, 0, arms)
    end = clock() + budget_s
    stop = lambda: clock() >= end  # noqa: E731
    iterations = 0
    while not stop() and (max_iterations is None or iterations < max_iterations):
        iterations += 1
        state = sample(rng)
        draws = Rng(rng.randbytes(16))
        order = list(arms)
        rng.shuffle(order)  # ties go to any of them
        for arm in order:
            arm.available += 1
        tried: set[int] = set()
        while len(tried) < len(order):
            arm = _select(order, tried)
            tried.add(id(arm))
            try:
                after = fold(game, state, game.decide(state, seat, arm.action, draws))
            except RuleViolation:
                continue  # not open in this sample: another arm
            last = playout(game, after, rng, draws, stop)
            arm.visits += 1
            arm.total += reward(game, last, seat)
            break
    best = max(arms, key=lambda a: (a.visits, a.total))
    if best.visits == 0:
        best = arms[0]
    return Searched(best.action, iterations, arms)


def _select(arms: list[Arm], tried: set[int]) -> Arm:
    """UCB1 among the arms not yet tried on this sample (an unvisited arm first)."""
    best, score = None, -math.inf
    for arm in arms:
        if id(arm) in tried:
            continue
        if arm.visits == 0:
            return arm
        value = arm.total / arm.visits + EXPLORE * math.sqrt(
            math.log(max(arm.available, 1)) / arm.visits
        )
        if value > score:
            best, score = arm, value
    assert best is not None
    return best

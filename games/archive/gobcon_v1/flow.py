"""The rules' own steps: run them after every decision until a player must decide again."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from games.base import Event
from games.archive.gobcon_v1 import contest, effects, turn
from games.archive.gobcon_v1.evolve import evolve
from games.archive.gobcon_v1.scoring import finished_event, reached_goal
from games.archive.gobcon_v1.state import (
    ANSWERING,
    CLOSING,
    DRAW,
    EFFECT,
    GAME_ID,
    LM_DISCARD,
    LM_PASS,
    NEXT,
    REACT,
    State,
)
from games.archive.gobcon_v1.shared.kit import OVER, SETUP, run_steps
from games.rng import Rng

Step = Callable[[State, Rng], list[Event]]
STEPS: dict[str, Step] = {
    SETUP: lambda s, rng: turn.after_deal(s),
    NEXT: lambda s, rng: turn.next_turn(s),
    LM_DISCARD: lambda s, rng: turn.lose_only_item(s),
    LM_PASS: lambda s, rng: turn.pass_logorrea(s),
    DRAW: lambda s, rng: turn.draw(s, rng),
    REACT: lambda s, rng: effects.react(s),
    ANSWERING: lambda s, rng: effects.answer(s),
    EFFECT: lambda s, rng: effects.resolve_pending(s),
    CLOSING: lambda s, rng: contest.close_game(s),
}


# Events that may change a score; the goal is checked again only after one of them.
SCORING = frozenset(
    f"{GAME_ID}.{name}"
    for name in (
        "LogorreaPlayed",
        "ItemLost",
        "LogorreaPassed",
        "LogorreaLeft",
        "ResponsePlayed",
        "FriendJoined",
        "ItemBought",
        "SpecialResolved",
        "BonusMalusCancelled",
        "ProhibitionsLifted",
        "DieRolled",
        "GameClosed",
        "FriendDismissed",
    )
)


def end_check(state: State, scored: bool = True) -> list[Event]:
    """Return the end of the game if a score reached the goal or (option) the deck ran out."""
    if state.phase in (SETUP, OVER):
        return []
    if scored and reached_goal(state):
        return [finished_event(state, "goal")]
    if state.end_on_empty_deck and not state.draw:
        return [finished_event(state, "deck_empty")]
    return []


def _end_check(state: State, applied: list[Event]) -> list[Event]:
    return end_check(state, any(ev.type in SCORING for ev in applied))


def play(state: State, events: list[Event], rng: Rng) -> tuple[State, list[Event]]:
    """Apply `events`, then run automatic steps until a decision is owed or the game ends."""
    steps = {phase: partial(step, rng=rng) for phase, step in STEPS.items()}
    return run_steps(state, events, evolve, steps, check=_end_check)

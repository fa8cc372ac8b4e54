"""The rules' own steps: run them after every decision until a player must decide again."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from games.base import Event
from games.archive.gobcon_v2 import contest, effects, turn, windows
from games.archive.gobcon_v2.evolve import evolve
from games.archive.gobcon_v2.scoring import finished_event, reached_goal
from games.archive.gobcon_v2.state import (
    ANSWERING,
    CLOSING,
    DRAW,
    EFFECT,
    GAME_ID,
    LM_DISCARD,
    LM_PASS,
    NEXT,
    REACT,
    ROLL,
    SETTLE,
    State,
)
from games.archive.gobcon_v2.shared.kit import OVER, SETUP, run_steps
from games.rng import Rng

Step = Callable[[State, Rng], list[Event]]
STEPS: dict[str, Step] = {
    SETUP: lambda s, rng: turn.after_deal(s),
    NEXT: lambda s, rng: windows.step_window(s) or turn.next_turn(s),
    LM_DISCARD: lambda s, rng: turn.lose_only_item(s),
    LM_PASS: lambda s, rng: turn.pass_logorrea(s),
    DRAW: lambda s, rng: turn.draw(s, rng),
    REACT: lambda s, rng: windows.react(s),
    ANSWERING: lambda s, rng: windows.answer(s),
    EFFECT: lambda s, rng: effects.resolve_pending(s),
    SETTLE: lambda s, rng: windows.settle(s),
    ROLL: lambda s, rng: windows.step_window(s),
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
        "ResponseResolved",
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


# Events after which Logorrea-Man may find nobody with an Item in play.
TALKING = frozenset(f"{GAME_ID}.{name}" for name in ("LogorreaPlayed", "ItemLost"))


def end_check(state: State, scored: bool = True) -> list[Event]:
    """Return the end of the game if a score reached the goal (at any moment, setup
    included) or, with the option, once the deck ran out during play."""
    if state.phase == OVER:
        return []
    if scored and reached_goal(state):
        return [finished_event(state, "goal")]
    if state.end_on_empty_deck and not state.draw and state.phase != SETUP:
        return [finished_event(state, "deck_empty")]
    return []


def _checks(state: State, applied: list[Event]) -> list[Event]:
    """The rules that hold at every moment: the goal, then Logorrea-Man without Items."""
    done = end_check(state, any(ev.type in SCORING for ev in applied))
    if not done and any(ev.type in TALKING for ev in applied):
        done = turn.silence_logorrea(state)
    return done


def play(state: State, events: list[Event], rng: Rng) -> tuple[State, list[Event]]:
    """Apply `events`, then run automatic steps until a decision is owed or the game ends."""
    steps = {phase: partial(step, rng=rng) for phase, step in STEPS.items()}
    return run_steps(state, events, evolve, steps, check=_checks)

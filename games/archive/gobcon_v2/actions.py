"""The action objects players send: their shapes, and who owes which decision now."""

from __future__ import annotations

from typing import Any

from games.archive.gobcon_v2.shared import shapes
from games.base import Owed, Seat
from games.archive.gobcon_v2.checks import cheapest_item
from games.archive.gobcon_v2.contest import roller
from games.archive.gobcon_v2.state import (
    AIM,
    ANSWER,
    DISCARD,
    JOIN,
    LM_DISCARD,
    LM_PASS,
    PLAY,
    ROLL,
    WINDOW,
    State,
    give_candidates,
    targets,
)

# Action type -> {field: JSON type}. "type" itself is always required.
SHAPES: dict[str, dict[str, type]] = {
    "play": {"card": str},
    "discard": {"card": str},
    "dismiss_friend": {},
    "end_turn": {},
    "target": {"seat": int},
    "lose_item": {"card": str},
    "give": {"seat": int},
    "respond": {"card": str},
    "pass": {},
    "join": {},
    "decline": {},
    "roll": {},
}
# Decision kind -> the action types that answer it.
ANSWERS = {
    "turn": ("play", "discard", "dismiss_friend", "end_turn"),
    "target": ("target",),
    "lose_item": ("lose_item",),
    "give": ("give",),
    "respond": ("respond", "pass"),
    "join": ("join", "decline"),
    "roll": ("roll",),
}


def parse(action: Any) -> str:
    """Check an action object's shape and return its type; raise InvalidAction if malformed."""
    return shapes.parse(action, SHAPES)


def aim_candidates(state: State) -> list[Seat]:
    """Return the seats the Special on top of the chain may be aimed at."""
    top = state.top
    return targets(state, top.seat, state.card(top.card))


def aim_default(state: State) -> Seat:
    """Return the target a deadline picks: for an answer, the player whose card it answers
    (or else the active player) when it may; otherwise the first candidate to the left."""
    seats = aim_candidates(state)
    if state.top.kind == ANSWER:
        for seat in (state.chain[-2].seat, state.active):
            if seat in seats:
                return seat
    return seats[0]


def _sequential(state: State) -> list[Owed]:
    seat, tick, phase = state.active, state.tick, state.phase
    if phase in (PLAY, DISCARD):
        return [Owed(seat, "turn", f"turn-{tick}", {"type": "end_turn"})]
    if phase == AIM:
        default = {"type": "target", "seat": aim_default(state)}
        return [Owed(state.top.seat, "target", f"target-{tick}", default)]
    if phase == LM_DISCARD and len(state.items[seat]) > 1:
        default = {"type": "lose_item", "card": cheapest_item(state, seat)}
        return [Owed(seat, "lose_item", f"lose_item-{tick}", default)]
    if phase == LM_PASS and len(give_candidates(state, seat)) > 1:
        default = {"type": "give", "seat": give_candidates(state, seat)[0]}
        return [Owed(seat, "give", f"give-{tick}", default)]
    if phase == ROLL:
        return [Owed(roller(state), "roll", f"roll-{tick}", {"type": "roll"})]
    return []


def owed(state: State | None) -> list[Owed]:
    """Return every decision owed now (several only in a simultaneous phase)."""
    if state is None:
        return []
    if state.phase == WINDOW:
        done = {s for s, _ in state.window.submitted}
        seats = [s for s in state.window.responders if s not in done]
        return [Owed(s, "respond", state.window.key, {"type": "pass"}, True) for s in seats]
    if state.phase == JOIN:
        done = {s for s, _ in state.contest.joins}
        seats = [s for s in state.contest.eligible if s not in done]
        return [Owed(s, "join", state.contest.key, {"type": "decline"}, True) for s in seats]
    return _sequential(state)

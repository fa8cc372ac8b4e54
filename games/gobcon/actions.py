"""The action objects players send: their shapes, who owes what, and what is legal now."""

from __future__ import annotations

from typing import Any

from games import shapes
from games.base import ActionSpec, Owed, Seat
from games.gobcon.checks import answers, cheapest_item, playable
from games.gobcon.contest import roller
from games.gobcon.state import (
    AIM,
    DISCARD,
    JOIN,
    LM_DISCARD,
    LM_PASS,
    PLAY,
    ROLL,
    WINDOW,
    State,
    give_candidates,
    logorrea_owner,
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
    """Return the seats the pending Special may be aimed at."""
    pending = state.pending
    return targets(state, pending.seat, state.card(pending.card))


def _sequential(state: State) -> list[Owed]:
    seat, tick, step = state.active, state.tick, state.step
    if step in (PLAY, DISCARD):
        return [Owed(seat, "turn", f"turn-{tick}", {"type": "end_turn"})]
    if step == AIM:
        default = {"type": "target", "seat": aim_candidates(state)[0]}
        return [Owed(seat, "target", f"target-{tick}", default)]
    if step == LM_DISCARD and len(state.items[seat]) > 1:
        default = {"type": "lose_item", "card": cheapest_item(state, seat)}
        return [Owed(seat, "lose_item", f"lose_item-{tick}", default)]
    if step == LM_PASS and len(give_candidates(state, seat)) > 1:
        default = {"type": "give", "seat": give_candidates(state, seat)[0]}
        return [Owed(seat, "give", f"give-{tick}", default)]
    if step == ROLL:
        return [Owed(roller(state), "roll", f"roll-{tick}", {"type": "roll"})]
    return []


def owed(state: State | None) -> list[Owed]:
    """Return every decision owed now (several only in a simultaneous phase)."""
    if state is None:
        return []
    if state.step == WINDOW:
        done = {s for s, _ in state.window.submitted}
        seats = [s for s in state.window.responders if s not in done]
        return [Owed(s, "respond", state.window.key, {"type": "pass"}, True) for s in seats]
    if state.step == JOIN:
        done = {s for s, _ in state.contest.joins}
        seats = [s for s in state.contest.eligible if s not in done]
        return [Owed(s, "join", state.contest.key, {"type": "decline"}, True) for s in seats]
    return _sequential(state)


def schema(kind: str, **props: dict[str, Any]) -> dict[str, Any]:
    """Return the JSON Schema of a whole action object of type `kind`."""
    return {
        "type": "object",
        "properties": {"type": {"const": kind}, **props},
        "required": ["type", *props],
        "additionalProperties": False,
    }


def _plain(kind: str) -> ActionSpec:
    return ActionSpec(kind, schema(kind), [{"type": kind}])


def _pick(kind: str, field: str, values: list[Any]) -> list[ActionSpec]:
    if not values:
        return []
    json_type = "integer" if isinstance(values[0], int) else "string"
    prop = {"type": json_type, "enum": list(values)}
    choices = [{"type": kind, field: v} for v in values]
    return [ActionSpec(kind, schema(kind, **{field: prop}), choices)]


def _turn_specs(state: State, seat: Seat) -> list[ActionSpec]:
    specs = _pick("play", "card", playable(state, seat)) if state.step == PLAY else []
    specs += _pick("discard", "card", list(state.hands[seat]))
    friend = state.friends[seat]
    if friend is not None and logorrea_owner(state) != seat:
        specs.append(_plain("dismiss_friend"))
    return [*specs, _plain("end_turn")]


def legal(state: State | None, seat: Seat) -> list[ActionSpec]:
    """Return the actions `seat` may take now (empty when it owes nothing)."""
    due = [o for o in owed(state) if o.seat == seat]
    if not due:
        return []
    kind = due[0].kind
    if kind == "turn":
        return _turn_specs(state, seat)
    if kind == "target":
        return _pick("target", "seat", aim_candidates(state))
    if kind == "lose_item":
        return _pick("lose_item", "card", list(state.items[seat]))
    if kind == "give":
        return _pick("give", "seat", give_candidates(state, seat))
    if kind == "respond":
        return [*_pick("respond", "card", answers(state, seat)), _plain("pass")]
    if kind == "join":
        return [_plain("join"), _plain("decline")]
    return [_plain("roll")]

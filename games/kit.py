"""The pieces every game repeats: building the game object, folding events, the loop of
automatic steps, the decide preamble, action schemas, seat order and standings.

A game's state is a frozen dataclass with at least `order` (the seats, first player
first) and `phase` (where the game stands; SETUP before the first event is applied and
OVER once it has ended).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import fields
from functools import cache
from types import SimpleNamespace
from typing import Any, Protocol

from games.base import (
    RULE_FUNCTIONS,
    ActionSpec,
    Event,
    Game,
    NotYourTurn,
    Owed,
    Result,
    RuleViolation,
    Seat,
    Standing,
)

SETUP = "setup"
OVER = "over"
MAX_CHOICES = 200  # list every choice of an amount when there are at most this many

Evolve = Callable[[Any, Event], Any]
Step = Callable[[Any], list[Event]]


class Table(Protocol):
    order: tuple[Seat, ...]
    phase: str


def assemble(namespace: Mapping[str, Any], rules_version: int) -> Game:
    """Build a game from a package's namespace (its `globals()`): the rule functions of the
    protocol and GAME_ID, NAMES, MIN_PLAYERS, MAX_PLAYERS, OPTIONS_SCHEMA (and PRIVATE_LOG,
    false if absent, with `keeps_private_log(options)` if only some options use it, and
    OPTION_TEXTS, none if absent); fail at import if any of the others is missing."""
    missing = [name for name in RULE_FUNCTIONS if not callable(namespace.get(name))]
    if missing:
        raise TypeError(f"{namespace.get('GAME_ID')} lacks {', '.join(missing)}")
    return SimpleNamespace(
        id=namespace["GAME_ID"],
        names=dict(namespace["NAMES"]),
        min_players=namespace["MIN_PLAYERS"],
        max_players=namespace["MAX_PLAYERS"],
        rules_version=rules_version,
        options_schema=namespace["OPTIONS_SCHEMA"],
        private_log=(private := bool(namespace.get("PRIVATE_LOG", False))),
        keeps_private_log=namespace.get("keeps_private_log", lambda options: private),
        option_texts=dict(namespace.get("OPTION_TEXTS", {})),
        **{name: namespace[name] for name in RULE_FUNCTIONS},
    )


def fold(state: Any, events: Iterable[Event], evolve: Evolve) -> Any:
    """Return `state` after applying `events` in order."""
    for ev in events:
        state = evolve(state, ev)
    return state


def run_steps(
    state: Any,
    events: list[Event],
    evolve: Evolve,
    steps: Mapping[str, Step],
    check: Callable[[Any, list[Event]], list[Event]] | None = None,
) -> tuple[Any, list[Event]]:
    """Apply `events`, then keep running the automatic step for the state's phase (from
    `steps`: phase -> function(state) -> events) until a player owes a decision (no step,
    or a step with nothing to do). `check(state, last events)`, when given, runs before
    each step and its events, if any, take the step's place (e.g. an end-of-game check).
    Return the final state and every event."""
    out = list(events)
    state = fold(state, events, evolve)
    last = out
    while True:
        more = check(state, last) if check else []
        if not more:
            step = steps.get(state.phase)
            more = step(state) if step is not None else []
        if not more:
            return state, out
        state = fold(state, more, evolve)
        out.extend(more)
        last = more


def is_over(state: Table | None) -> bool:
    """Return True once the game has ended."""
    return state is not None and state.phase == OVER


def action_kind(
    state: Table | None, action: Any, parse: Callable[[Any], str], closed: tuple[str, ...] = ()
) -> str:
    """Refuse every action before setup (or in a `closed` phase) and after the end; return
    the type of a well-formed action (`parse` raises InvalidAction otherwise)."""
    if state is None or state.phase in closed:
        raise RuleViolation("the game has not been set up", code="action_not_allowed")
    if state.phase == OVER:
        raise RuleViolation("the game is over", code="game_over")
    return parse(action)


def due(owed: list[Owed], seat: Seat) -> Owed | None:
    """Return the first decision `seat` owes among `owed`, or None."""
    return next((o for o in owed if o.seat == seat), None)


def answered(
    owed: list[Owed],
    seat: Seat,
    kind: str,
    answers: Mapping[str, tuple[str, ...]],
    unowed: Callable[[], RuleViolation] | None = None,
) -> Owed:
    """Return the decision that an action of type `kind` by `seat` answers; raise
    `unowed()` (NotYourTurn by default) if it owes none, RuleViolation if `kind` does
    not answer it (`answers`: decision kind -> action types)."""
    decision = due(owed, seat)
    if decision is None:
        raise unowed() if unowed else NotYourTurn(f"seat {seat} owes no decision now")
    if kind not in answers.get(decision.kind, ()):
        raise RuleViolation(
            f"{kind} does not answer a {decision.kind} decision",
            code="action_not_allowed",
            field="type",
        )
    return decision


def schema(kind: str, **props: dict[str, Any]) -> dict[str, Any]:
    """Return the JSON Schema of a whole action object of type `kind`."""
    return {
        "type": "object",
        "properties": {"type": {"const": kind}, **props},
        "required": ["type", *props],
        "additionalProperties": False,
    }


def one_of(kind: str, branches: list[dict[str, dict[str, Any]]]) -> dict[str, Any]:
    """Return the JSON Schema of an action of type `kind` whose fields depend on each
    other: exactly one of `branches` (each: field -> schema) fits (a single branch is
    returned as a plain schema)."""
    if len(branches) == 1:
        return schema(kind, **branches[0])
    return {"type": "object", "oneOf": [schema(kind, **props) for props in branches]}


def plain(kind: str) -> ActionSpec:
    """Return the spec of an action that has no field but its type."""
    return ActionSpec(kind, schema(kind), [{"type": kind}])


def pick(kind: str, field: str, values: list[Any]) -> list[ActionSpec]:
    """Return the spec of an action whose one `field` takes one of `values` (none if empty)."""
    if not values:
        return []
    json_type = "integer" if isinstance(values[0], int) else "string"
    prop = {"type": json_type, "enum": list(values)}
    choices = [{"type": kind, field: v} for v in values]
    return [ActionSpec(kind, schema(kind, **{field: prop}), choices)]


def amount(kind: str, low: int, high: int) -> ActionSpec:
    """Return the spec of an action with an integer `amount` from `low` to `high`."""
    amounts = range(low, high + 1)
    choices = None
    if len(amounts) <= MAX_CHOICES:
        choices = [{"type": kind, "amount": a} for a in amounts]
    prop = {"type": "integer", "minimum": low, "maximum": high}
    return ActionSpec(kind, schema(kind, amount=prop), choices)


def clockwise(state: Table, start: Seat) -> list[Seat]:
    """Return every seat in seating order (clockwise), starting with `start`."""
    i = state.order.index(start)
    return [*state.order[i:], *state.order[:i]]


def others(state: Table, seat: Seat) -> list[Seat]:
    """Return every other seat in seating order, starting at the left of `seat`."""
    return clockwise(state, seat)[1:]


def left_of(state: Table, seat: Seat) -> Seat:
    """Return the seat to the left of `seat` (clockwise: the next one in order)."""
    i = state.order.index(seat)
    return state.order[(i + 1) % len(state.order)]


def right_of(state: Table, seat: Seat) -> Seat:
    """Return the seat to the right of `seat` (the previous one in order)."""
    i = state.order.index(seat)
    return state.order[i - 1]


def places(scores: dict[Seat, tuple[int, ...]]) -> dict[Seat, int]:
    """Rank seats by score key, highest first; equal keys share a place (1, 1, 3, ...)."""
    ordered = sorted(scores, key=lambda s: scores[s], reverse=True)
    out: dict[Seat, int] = {}
    for i, seat in enumerate(ordered):
        if i and scores[seat] == scores[ordered[i - 1]]:
            out[seat] = out[ordered[i - 1]]
        else:
            out[seat] = i + 1
    return out


def ranked(
    order: tuple[Seat, ...],
    points: Mapping[Seat, int],
    keys: Mapping[Seat, tuple[int, ...]],
    detail: dict[str, Any],
) -> Result:
    """Return the result: seats by place (ranking `keys`, highest first; equal keys share
    a place), then seating order; every seat in first place wins."""
    ranks = places(dict(keys))
    standings = tuple(
        sorted(
            (Standing(s, points[s], ranks[s]) for s in points),
            key=lambda st: (st.place, order.index(st.seat)),
        )
    )
    winners = tuple(st.seat for st in standings if st.place == 1)
    return Result(standings, winners, detail)


def heading(
    game_id: str, names: Mapping[str, str], state: Table, seat: Seat | None, lang: str
) -> dict[str, Any]:
    """Return the first fields of every view: the game, its name in `lang`, and `you`."""
    return {
        "game": game_id,
        "name": names.get(lang, names["en"]),
        "you": seat if seat in state.order else None,
    }


def owed_json(owed: list[Owed]) -> list[dict[str, Any]]:
    """Return the decisions owed as a view lists them: who owes which kind."""
    return [{"seat": o.seat, "kind": o.kind} for o in owed]


def without(pile: tuple[str, ...], gone: Iterable[str]) -> tuple[str, ...]:
    """Return `pile` without any card in `gone`."""
    gone = list(gone)
    return tuple(c for c in pile if c not in gone)


@cache
def _field_names(cls: type) -> frozenset[str]:
    return frozenset(f.name for f in fields(cls))


def replace(obj: Any, **changes: Any) -> Any:
    """`dataclasses.replace` for the rules' frozen states (plain dataclasses: no
    `__post_init__`, no init-only fields), several times cheaper: a copy of the instance's
    dict with `changes`. The evolvers call it for every event folded. An unknown field is
    a TypeError, as with `dataclasses.replace`."""
    if not changes.keys() <= _field_names(type(obj)):
        raise TypeError(
            f"{type(obj).__name__} has no field {set(changes) - _field_names(type(obj))}"
        )
    copy = object.__new__(type(obj))
    copy.__dict__.update(obj.__dict__, **changes)
    return copy

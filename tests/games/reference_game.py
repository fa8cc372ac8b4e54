"""Lucky Pick: the reference game that games/README.md teaches from, whole in one file.

Registered only in tests (`tests/games/test_reference_game.py`), never served. It has
what every real game has, in the smallest form: options, a setup that draws from the
committed seed, a simultaneous phase with sealed submissions (a secret event that the
others see only in part), `ready`/`resolve`, a draw while resolving, views per seat,
scoring with shared places, and invariants.

The rules: every round each seat secretly picks 1, 2 or 3 (the default is 1). When all
picks are in they are revealed and a lucky number (1-3) is drawn. The highest number
that exactly one seat picked scores its value for that seat, twice over if it is the
lucky number. After `rounds` rounds (3 by default) the most points win.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import kit
from games.base import Action, Event, OptionError, Owed, RuleViolation, Seat
from games.catalog import EventCatalog, EventType
from games.rng import Rng
from games.shapes import parse as parse_shape

GAME_ID = "lucky-pick"
NAMES = {"en": "Lucky Pick", "es": "Número afortunado"}
MIN_PLAYERS, MAX_PLAYERS = 2, 5
NUMBERS = (1, 2, 3)
PICKING = "picking"
OPTIONS_SCHEMA = {
    "type": "object",
    "properties": {"rounds": {"type": "integer", "minimum": 1, "maximum": 5, "default": 3}},
    "additionalProperties": False,
}
OPTION_TEXTS = {"es": {"rounds": "Cuántas rondas se juegan (1-5)."}}

# The permanent record: names in the past tense, plain JSON fields, never changed once
# stored. `NumberPicked` is secret: the others learn only which seat picked.
EVENTS = EventCatalog(
    GAME_ID,
    {
        "GameStarted": EventType(("order", "rounds")),
        "RoundOpened": EventType(("round",)),
        "NumberPicked": EventType(("seat", "number"), secret="the picker", public=("seat",)),
        "PicksRevealed": EventType(("picks", "lucky", "scorer", "points")),
        "GameEnded": EventType(()),
    },
)
event = EVENTS.event
SHAPES = {"pick": {"number": int}}
ANSWERS = {"pick": ("pick",)}


@dataclass(frozen=True)
class State:
    order: tuple[Seat, ...]
    phase: str = kit.SETUP
    rounds: int = 3
    round: int = 0
    picks: tuple[tuple[Seat, int], ...] = ()  # this round's, in the order they came
    scores: tuple[int, ...] = ()  # by position in `order`
    last: dict[str, Any] | None = None  # the last round's reveal, as its event says


def normalize_options(options: dict[str, Any], players: int) -> dict[str, Any]:
    unknown = set(options) - {"rounds"}
    if unknown:
        raise OptionError(sorted(unknown)[0], "is not an option of Lucky Pick")
    rounds = options.get("rounds", 3)
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= 5:
        raise OptionError("rounds", "must be a whole number from 1 to 5")
    return {"rounds": rounds}


def setup(options: dict[str, Any], order: tuple[Seat, ...], rng: Rng) -> list[Event]:
    opts = normalize_options(options, len(order))
    started = event("GameStarted", order=list(order), rounds=opts["rounds"])
    return [started, event("RoundOpened", round=1)]


def _started(state: None, d: dict) -> State:
    return State(tuple(d["order"]), rounds=d["rounds"], scores=(0,) * len(d["order"]))


def _picked(state: State, d: dict) -> State:  # redacted, a pick has no number: 0 here
    return kit.replace(state, picks=(*state.picks, (d["seat"], d.get("number", 0))))


def _revealed(state: State, d: dict) -> State:
    scores = list(state.scores)
    if d["scorer"] is not None:
        scores[state.order.index(d["scorer"])] += d["points"]
    return kit.replace(state, scores=tuple(scores), last=dict(d))


APPLY = {
    "GameStarted": _started,
    "RoundOpened": lambda state, d: kit.replace(state, phase=PICKING, round=d["round"], picks=()),
    "NumberPicked": _picked,
    "PicksRevealed": _revealed,
    "GameEnded": lambda state, d: kit.replace(state, phase=kit.OVER),
}


evolve = EVENTS.evolver(APPLY)


def owed(state: State | None) -> list[Owed]:
    if state is None or state.phase != PICKING:
        return []
    done = {s for s, _ in state.picks}
    key = f"pick-{state.round}"
    default = {"type": "pick", "number": 1}
    return [Owed(s, "pick", key, default, simultaneous=True) for s in state.order if s not in done]


def legal(state: State | None, seat: Seat) -> list:
    return (
        kit.pick("pick", "number", list(NUMBERS))
        if any(o.seat == seat for o in owed(state))
        else []
    )


def decide(state: State | None, seat: Seat, action: Action, rng: Rng) -> list[Event]:
    kind = kit.action_kind(state, action, lambda a: parse_shape(a, SHAPES))
    if any(s == seat for s, _ in state.picks):
        raise RuleViolation(f"seat {seat} already picked this round", code="already_submitted")
    kit.answered(owed(state), seat, kind, ANSWERS)
    if action["number"] not in NUMBERS:
        raise RuleViolation("pick 1, 2 or 3", code="invalid_number", field="number")
    return [event("NumberPicked", (seat,), seat=seat, number=action["number"])]


def ready(state: State | None) -> str | None:
    if state is None or state.phase != PICKING or len(state.picks) < len(state.order):
        return None
    return f"pick-{state.round}"


def resolve(state: State, rng: Rng) -> list[Event]:
    if ready(state) is None:
        raise RuleViolation("no pick is waiting to be revealed", code="action_not_allowed")
    picks = dict(state.picks)
    lucky = rng.choice(NUMBERS)
    alone = [n for n in NUMBERS if list(picks.values()).count(n) == 1]
    best = max(alone, default=None)
    scorer = next((s for s, n in picks.items() if n == best), None)
    points = 0 if best is None else best * (2 if best == lucky else 1)
    shown = [{"seat": s, "number": picks[s]} for s in state.order]
    events = [event("PicksRevealed", picks=shown, lucky=lucky, scorer=scorer, points=points)]
    if state.round < state.rounds:
        return [*events, event("RoundOpened", round=state.round + 1)]
    return [*events, event("GameEnded")]


def view(state: State, seat: Seat | None, lang: str) -> dict[str, Any]:
    mine = dict(state.picks).get(seat) if seat is not None else None
    return {
        **kit.heading(GAME_ID, NAMES, state, seat, lang),
        "phase": state.phase,
        "round": state.round,
        "rounds": state.rounds,
        "owed": kit.owed_json(owed(state)),
        "your_pick": mine,
        "picked": [s for s, _ in state.picks],
        "scores": [{"seat": s, "score": state.scores[i]} for i, s in enumerate(state.order)],
        "last_round": state.last,
        "winners": list(result(state).winners) if state.phase == kit.OVER else None,
    }


redact = EVENTS.redact


is_over = kit.is_over


def result(state: State):
    points = {s: state.scores[i] for i, s in enumerate(state.order)}
    return kit.ranked(state.order, points, {s: (p,) for s, p in points.items()}, {})


def check_invariants(state: State | None) -> None:
    if state is None:
        return
    assert all(score >= 0 for score in state.scores)
    assert len({s for s, _ in state.picks}) == len(state.picks) <= len(state.order)
    assert 0 <= state.round <= state.rounds + 1


def card_catalogue(options: dict[str, Any] | None, lang: str) -> list[dict[str, Any]]:
    return []  # no cards: only numbers


GAME = kit.assemble(globals(), rules_version=1)

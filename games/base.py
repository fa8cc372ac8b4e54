"""The one interface every game implements, and the values it trades in.

A game is a module-like object with pure functions over a frozen state. It never
touches I/O or a clock: randomness comes in as an `Rng` (see `games.rng`), time
never comes in at all (deadlines are the service's business).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from games.rng import Rng

Seat = int
Action = dict[str, Any]  # an action object as a seat sends it: {"type": ..., fields}
ALL = "all"


@dataclass(frozen=True)
class Event:
    """A fact decided by the rules: `type` is `<game>.<Name>`, `visible_to` is ALL or seats."""

    type: str
    data: dict[str, Any]
    visible_to: str | tuple[Seat, ...] = ALL


@dataclass(frozen=True)
class ActionSpec:
    """One kind of action a seat may take now: a JSON Schema and, when small, every choice."""

    type: str
    schema: dict[str, Any]
    choices: list[dict[str, Any]] | None = None


@dataclass(frozen=True)
class Owed:
    """A decision `seat` owes now; `key` names it (stable until it is made), `default` is
    the action applied for the seat when its deadline passes.

    `simultaneous` marks a seat's part in a simultaneous phase (sealed bids, secret
    production, a reaction window): every seat of one phase shares the phase's `key`, so
    the phase has one deadline. When every submission is in, `ready(state)` returns
    that key and a worker calls `resolve(state, rng)`; at the deadline the missing seats'
    defaults are submitted through `decide` and the phase is resolved the same way.
    """

    seat: Seat
    kind: str
    key: str
    default: dict[str, Any]
    simultaneous: bool = False


@dataclass(frozen=True)
class Standing:
    seat: Seat
    score: int
    place: int


@dataclass(frozen=True)
class Result:
    """The same shape for every game; `detail` holds game-specific figures."""

    standings: tuple[Standing, ...]
    winners: tuple[Seat, ...]
    detail: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Return the result as the API serves it."""
        return {
            "standings": [
                {"seat": s.seat, "score": s.score, "place": s.place} for s in self.standings
            ],
            "winners": list(self.winners),
            **self.detail,
        }


class RuleViolation(Exception):
    """An action the rules refuse; `code` is stable and documented (HTTP 409)."""

    code = "rule_violation"

    def __init__(self, detail: str, code: str | None = None, field: str | None = None):
        super().__init__(detail)
        if code:
            self.code = code
        self.field = field


class NotYourTurn(RuleViolation):
    code = "not_your_turn"


class PhaseClosed(RuleViolation):
    """A submission to a simultaneous phase that is no longer open."""

    code = "phase_closed"


class InvalidAction(RuleViolation):
    """The action object does not fit the action's schema (HTTP 422)."""

    code = "invalid_action"


class OptionError(ValueError):
    """A game option is unknown or has a bad value (HTTP 422)."""

    def __init__(self, field: str, reason: str):
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class Game(Protocol):
    """The pure rules of one game. Every function is deterministic given its arguments."""

    id: str
    names: dict[str, str]  # language -> display name
    min_players: int
    max_players: int
    rules_version: int
    options_schema: dict[str, Any]
    # private events (`redact` answers None to others) kept in a private log of their own,
    # not in the public one (docs/architecture.md, "Private steps")
    private_log: bool
    # language -> option -> its description in that language (OPTIONS_SCHEMA's are English)
    option_texts: dict[str, dict[str, str]]

    def normalize_options(self, options: dict[str, Any], players: int) -> dict[str, Any]:
        """Fill defaults and check `options`; raise OptionError naming the field."""

    def setup(self, options: dict[str, Any], order: tuple[Seat, ...], rng: Rng) -> list[Event]:
        """Return the events that open a game; `order` is the shuffled seating, first
        player first, each next seat to the left of the one before."""

    def evolve(self, state: Any, event: Event) -> Any:
        """Apply one of this game's events (state is None before the first). Never fails."""

    def decide(self, state: Any, seat: Seat, action: dict[str, Any], rng: Rng) -> list[Event]:
        """Check `action` by `seat` against the rules and return the events it causes."""

    def legal(self, state: Any, seat: Seat) -> list[ActionSpec]:
        """Return what `seat` may do now (empty when it owes nothing)."""

    def owed(self, state: Any) -> list[Owed]:
        """Return every decision owed now, with its default action."""

    def ready(self, state: Any) -> str | None:
        """Return the key of a simultaneous phase whose submissions are all in, else None.
        While a phase is ready nobody owes anything: the game waits for `resolve`."""

    def resolve(self, state: Any, rng: Rng) -> list[Event]:
        """Close the ready phase: reveal the submissions and return every event that follows
        (up to the next decision), like `decide`. Called only when `ready` is not None."""

    def view(self, state: Any, seat: Seat | None, lang: str) -> dict[str, Any]:
        """Return what `seat` may see (None: a spectator), names in `lang`."""

    def redact(self, event: Event, seat: Seat | None) -> dict[str, Any] | None:
        """Return the public data of an event `seat` may not see in full, or None when
        `seat` may not even learn that the event happened (a private wild-trade offer)."""

    def is_over(self, state: Any) -> bool:
        """Return True once the game has ended."""

    def result(self, state: Any) -> Result:
        """Return the final standings of a finished game."""

    def check_invariants(self, state: Any) -> None:
        """Raise AssertionError if the state breaks a conservation rule (for tests)."""

    def card_catalogue(self, options: dict[str, Any] | None, lang: str) -> list[dict[str, Any]]:
        """Return every card the game can use (with these normalized options; None: the
        defaults), each with `id`, `name` and a short rules `text` in `lang`."""

    def keeps_private_log(self, options: dict[str, Any]) -> bool:
        """Return True when a game with these normalized options may have private steps
        (`private_log` and options that use it: Black Market's wild trade)."""


RULE_FUNCTIONS = (
    "normalize_options",
    "setup",
    "evolve",
    "decide",
    "legal",
    "owed",
    "ready",
    "resolve",
    "view",
    "redact",
    "is_over",
    "result",
    "check_invariants",
    "card_catalogue",
)

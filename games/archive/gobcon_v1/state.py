"""The frozen state of a GobCon game and the small queries the rules ask of it.

Per-seat tuples (`hands`, `friends`, `items`, `specials`, `counters`) are indexed by
seat number. `phase` says which step of a turn the game stands at: a decision step waits
for a player, every other step is run by `flow.play` until a decision is owed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.base import Seat
from games.archive.gobcon_v1.cards import HAND_SIZE, Card
from games.archive.gobcon_v1.shared.kit import SETUP, others

GAME_ID = "gobcon"

# Steps run by the rules alone.
NEXT, DRAW, REACT, ANSWERING, EFFECT, CLOSING = (
    "next",
    "draw",
    "react",
    "answering",
    "effect",
    "closing",
)
# Steps that wait for a player (LM_DISCARD and LM_PASS only when there is a real choice).
PLAY, DISCARD, AIM, WINDOW, JOIN, ROLL = "play", "discard", "aim", "window", "join", "roll"
LM_DISCARD, LM_PASS = "lm_discard", "lm_pass"


@dataclass(frozen=True)
class Pending:
    """A card played by `seat` that has not taken effect yet (`target` once known)."""

    seat: Seat
    card: str
    target: Seat | None = None


@dataclass(frozen=True)
class Window:
    """A reaction window on `seat`'s pending card: sealed answers, then their queue."""

    key: str
    seat: Seat
    responders: tuple[Seat, ...]
    submitted: tuple[tuple[Seat, str | None], ...] = ()
    queue: tuple[tuple[Seat, str], ...] = ()


@dataclass(frozen=True)
class Contest:
    """A Game card being played: who may join, who joined, who has rolled."""

    card: str
    seat: Seat
    category: str
    eligible: tuple[Seat, ...]
    key: str
    joins: tuple[tuple[Seat, bool], ...] = ()
    players: tuple[Seat, ...] = ()
    rolled: tuple[Seat, ...] = ()
    king: bool = False


@dataclass(frozen=True)
class State:
    """Everything on the table."""

    order: tuple[Seat, ...]
    goal: int
    time_limit: int | None
    end_on_empty_deck: bool
    deck_name: str
    catalog: dict[str, Card]  # by card id
    cards: dict[str, Card]  # by instance id
    reactive: bool  # the deck holds any-time Specials, so plays open reaction windows
    draw: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()
    friends: tuple[str | None, ...] = ()
    items: tuple[tuple[str, ...], ...] = ()
    specials: tuple[tuple[str, ...], ...] = ()
    counters: tuple[int, ...] = ()
    phase: str = SETUP
    active: Seat | None = None
    turn: int = 0
    used: tuple[str, ...] = ()  # card types already played this turn
    pending: Pending | None = None
    window: Window | None = None
    contest: Contest | None = None
    tick: int = 0  # events applied so far: decision keys are built from it
    reason: str | None = None
    winners: tuple[Seat, ...] = ()

    @property
    def players(self) -> int:
        """Return how many players sit at the table."""
        return len(self.order)

    def card(self, instance: str) -> Card:
        """Return the card an instance id is a copy of."""
        return self.cards[instance]


def update(state: State, **changes: Any) -> State:
    """Return a copy of `state` with `changes` (a fast `dataclasses.replace` for hot paths)."""
    new = object.__new__(State)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def is_logorrea(state: State, instance: str | None) -> bool:
    """Return True if the instance is a Logorrea-Man."""
    if instance is None:
        return False
    card = state.card(instance)
    return card.type == "friend" and card.kind == "logorrea"


def logorrea_owner(state: State) -> Seat | None:
    """Return the seat with Logorrea-Man in play, or None."""
    for seat, friend in enumerate(state.friends):
        if is_logorrea(state, friend):
            return seat
    return None


def prohibited(state: State, seat: Seat, category: str | None) -> bool:
    """Return True if `seat` has a Prohibition of `category` in front of it."""
    if category is None:
        return False
    for inst in state.specials[seat]:
        card = state.card(inst)
        if card.kind == "prohibition" and card.category == category:
            return True
    return False


def aex_equo_in_play(state: State) -> list[str]:
    """Return every Aex Equo card lying in front of any player."""
    return [c for area in state.specials for c in area if state.card(c).kind == "aex_equo"]


def draw_step(state: State) -> str:
    """Return DRAW while the active player still draws (or holds a Logorrea-Man), else PLAY."""
    hand = state.hands[state.active]
    if any(is_logorrea(state, c) for c in hand):
        return DRAW
    if len(hand) < HAND_SIZE and (state.draw or state.discard):
        return DRAW
    return PLAY


def start_step(state: State) -> str:
    """Return the first step of the active player's turn: Logorrea-Man's duty, or drawing."""
    if logorrea_owner(state) == state.active:
        return LM_DISCARD if state.items[state.active] else LM_PASS
    return draw_step(state)


def give_candidates(state: State, owner: Seat) -> list[Seat]:
    """Return the opponents Logorrea-Man may be given to: those with Items, from the left."""
    return [s for s in others(state, owner) if state.items[s]]


def responders(state: State, seat: Seat) -> list[Seat]:
    """Return who gets a reaction window on `seat`'s play: every other player holding cards."""
    if not state.reactive:
        return []
    return [s for s in others(state, seat) if state.hands[s]]


def targets(state: State, seat: Seat, card: Card) -> list[Seat]:
    """Return the seats a Special played by `seat` may land on (its own seat for most)."""
    if card.targets_other:
        return others(state, seat)
    return [seat]

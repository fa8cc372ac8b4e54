"""The frozen state of a GobCon game and the small queries the rules ask of it.

Per-seat tuples (`hands`, `friends`, `items`, `specials`, `counters`) are indexed by
seat number. `phase` says which step of a turn the game stands at: a decision step waits
for a player, every other step is run by `flow.play` until a decision is owed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.base import Seat
from games.archive.gobcon_v2.cards import HAND_SIZE, Card
from games.archive.gobcon_v2.shared.kit import SETUP, clockwise, others

GAME_ID = "gobcon"

# Steps run by the rules alone (SETTLE: an answer on the chain takes effect).
NEXT, DRAW, REACT, ANSWERING, EFFECT, SETTLE, CLOSING = (
    "next",
    "draw",
    "react",
    "answering",
    "effect",
    "settle",
    "closing",
)
# Steps that wait for a player (LM_DISCARD and LM_PASS only when there is a real choice).
PLAY, DISCARD, AIM, WINDOW, JOIN, ROLL = "play", "discard", "aim", "window", "join", "roll"
LM_DISCARD, LM_PASS = "lm_discard", "lm_pass"
# What a link of the chain is: the active player's play, an answer, or a public step of the
# turn at which any-time cards may be played (before a roll, at the end of a turn).
PLAYED, ANSWER, BEFORE_ROLL, TURN_END = "play", "answer", "roll", "turn_end"
STEP_RESUMES = {BEFORE_ROLL: ROLL, TURN_END: NEXT}  # the phase a step's window returns to


@dataclass(frozen=True)
class Window:
    """A reaction window: its sealed answers, then (once revealed) the queue still to apply.

    Queued cards stay in their owners' hands until they are played from the queue; one
    that has nothing left to do by its turn stays there, unnamed."""

    key: str
    responders: tuple[Seat, ...]
    submitted: tuple[tuple[Seat, str | None], ...] = ()
    queue: tuple[tuple[Seat, str], ...] = ()


@dataclass(frozen=True)
class Link:
    """One link of the chain: a card waiting to take effect, or a step of the turn.

    The first link is the active player's play (`PLAYED`) or a step (`BEFORE_ROLL`,
    `TURN_END`, no seat nor card); each later one is an `ANSWER` played from the window of
    the link below it. `cancelled` once a cancel took the card away."""

    seat: Seat | None
    card: str | None
    target: Seat | None = None
    kind: str = PLAYED
    window: Window | None = None
    cancelled: bool = False

    @property
    def live(self) -> bool:
        """Return True for a card that still waits to take effect."""
        return self.card is not None and not self.cancelled


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
    chain: tuple[Link, ...] = ()  # the play or step being answered, then answers to answers
    contest: Contest | None = None
    held: str = ""  # the last step of the turn whose window was considered (`step_marker`)
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

    @property
    def pending(self) -> Link | None:
        """Return the active player's play waiting to take effect, or None."""
        if self.chain and self.chain[0].kind == PLAYED and self.chain[0].live:
            return self.chain[0]
        return None

    @property
    def top(self) -> Link | None:
        """Return the last link of the chain (the one being answered or settled), or None."""
        return self.chain[-1] if self.chain else None

    @property
    def window(self) -> Window | None:
        """Return the open window (the top link's), or None."""
        return self.chain[-1].window if self.chain else None


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


def responders(state: State, seat: Seat | None) -> list[Seat]:
    """Return who gets a window on `seat`'s card: every other player holding cards (every
    player, from the active one, for a step of the turn with no card)."""
    if not state.reactive:
        return []
    seats = others(state, seat) if seat is not None else clockwise(state, state.active)
    return [s for s in seats if state.hands[s]]


def committed(state: State) -> set[str]:
    """Return the cards promised as answers in a window below the top one (still in hand)."""
    return {card for link in state.chain if link.window for _, card in link.window.queue}


def step_marker(state: State) -> str | None:
    """Return the name of the public step of the turn the game stands at, if any."""
    if state.phase == ROLL and state.contest is not None:
        return f"{BEFORE_ROLL}-{state.contest.key}-{len(state.contest.rolled)}"
    if state.phase == NEXT and state.active is not None:
        return f"{TURN_END}-{state.turn}"
    return None


def targets(state: State, seat: Seat, card: Card) -> list[Seat]:
    """Return the seats a Special played by `seat` may land on (its own seat for most)."""
    if card.targets_other:
        return others(state, seat)
    return [seat]

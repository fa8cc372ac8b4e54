"""Scenario helpers for GobCon tests: lay out a table card by card, then play moves on it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.base import Event
from games.gobcon import GAME, flow
from games.gobcon.cards import catalog_of, instances
from games.gobcon.events import event
from games.gobcon.options import deck_of, normalize_options
from games.gobcon.state import NEXT, PLAY, State
from games.rng import NoRng, Rng

Seats = dict[int, list[str]]


class Dice(Rng):
    """A stand-in for the seeded Rng that rolls the given goblin-die values (1-6) in turn."""

    def __init__(self, *faces: int):
        super().__init__(b"dice", 0)
        self.faces = list(faces)

    def below(self, n: int) -> int:
        assert n == 6, "only die rolls are scripted"
        return self.faces.pop(0) - 1


def table(
    players: int = 2,
    hands: Seats | None = None,
    items: Seats | None = None,
    specials: Seats | None = None,
    friends: dict[int, str] | None = None,
    counters: dict[int, int] | None = None,
    draw_top: list[str] = (),
    active: int = 0,
    options: dict[str, Any] | None = None,
    discard: list[str] = (),
    draw_size: int | None = None,
) -> State:
    """Seat `players` (seat i at table position i) with exact cards (instance ids) in place.

    The draw pile is `draw_top` then every other card in deck order, cut to `draw_size`
    (the rest goes to the discard pile after `discard`). Seat `active` is in its play step.
    """
    opts = normalize_options(options or {}, players)
    deck = deck_of(opts)
    free = instances(catalog_of(deck))

    def take(cards: list[str]) -> tuple[str, ...]:
        for card in cards:
            free.remove(card)
        return tuple(cards)

    seats = range(players)
    placed = {
        "hands": tuple(take((hands or {}).get(s, [])) for s in seats),
        "items": tuple(take((items or {}).get(s, [])) for s in seats),
        "specials": tuple(take((specials or {}).get(s, [])) for s in seats),
        "friends": tuple(
            take([(friends or {})[s]])[0] if s in (friends or {}) else None for s in seats
        ),
    }
    top, parked = take(list(draw_top)), take(list(discard))
    pile = [*top, *free]
    if draw_size is not None:
        pile, parked = pile[:draw_size], (*parked, *pile[draw_size:])
    state = None
    for ev in (
        event(
            "GameStarted",
            order=list(seats),
            goal=opts["goal"],
            time_limit=opts["time_limit"],
            end_on_empty_deck=opts["end_on_empty_deck"],
            deck=deck,
        ),
        event("DeckShuffled", visible_to=(), deck=pile),
    ):
        state = GAME.evolve(state, ev)
    counts = tuple((counters or {}).get(s, 0) for s in seats)
    state = replace(
        state, **placed, discard=tuple(parked), counters=counts, phase=PLAY, active=active, turn=1
    )
    GAME.check_invariants(state)
    return state


def start_turn(state: State, seat: int, rng: Rng | None = None) -> tuple[State, list[Event]]:
    """Begin `seat`'s turn as if the seat on its right had just ended its own."""
    before = state.order[(state.order.index(seat) - 1) % len(state.order)]
    state = replace(state, phase=NEXT, active=before, used=())
    return flow.play(state, [], rng or NoRng())


def act(
    state: State, *moves: tuple[int, dict[str, Any]], rng: Rng | None = None
) -> tuple[State, list[Event]]:
    """Play `moves` (seat, action) in turn; return the new state and every event caused."""
    out: list[Event] = []
    for seat, action in moves:
        events = GAME.decide(state, seat, action, rng or NoRng())
        for ev in events:
            state = GAME.evolve(state, ev)
            GAME.check_invariants(state)
        out.extend(events)
    return state, out


def close(state: State, rng: Rng | None = None) -> tuple[State, list[Event]]:
    """Resolve the ready simultaneous phase, as the worker would."""
    assert GAME.ready(state) is not None, "no phase is ready"
    events = GAME.resolve(state, rng or NoRng())
    for ev in events:
        state = GAME.evolve(state, ev)
        GAME.check_invariants(state)
    return state, events


def names(events: list[Event]) -> list[str]:
    """Return the short names of `events`, e.g. "CardPlayed"."""
    return [ev.type.split(".", 1)[1] for ev in events]


def only(events: list[Event], name: str) -> list[dict[str, Any]]:
    """Return the data of the events called `name`."""
    return [ev.data for ev in events if ev.type.endswith("." + name)]


def play(card: str) -> dict[str, Any]:
    return {"type": "play", "card": card}


def respond(card: str) -> dict[str, Any]:
    return {"type": "respond", "card": card}


def target(seat: int) -> dict[str, Any]:
    return {"type": "target", "seat": seat}


PASS = {"type": "pass"}
JOIN = {"type": "join"}
DECLINE = {"type": "decline"}
ROLL = {"type": "roll"}
END = {"type": "end_turn"}

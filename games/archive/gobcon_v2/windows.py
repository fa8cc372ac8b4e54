"""Reaction windows and the chain of answers.

A card the active player plays waits on the chain while the others may answer it; an
answer is itself a card on the chain that the others may answer (only with a cancel: a
Special resolves before anything else but a cancel), and so on until nobody answers.
Then the top card takes effect and the window below it goes on with its next answer. At
the public steps of a turn that are not plays (before each roll of a Game, at the end of
a turn) every player may play any-time cards in a window of its own.

A window opens only when some seat it is offered to could answer; it is then offered to
every one of them alike, so its opening tells nobody which seat could.
"""

from __future__ import annotations

from games.base import Event, Seat
from games.archive.gobcon_v2.checks import answer_has_effect, response_problem
from games.archive.gobcon_v2.effects import resolve_pending, side_effects
from games.archive.gobcon_v2.events import event
from games.archive.gobcon_v2.evolve import evolve
from games.archive.gobcon_v2.state import (
    BEFORE_ROLL,
    PLAYED,
    ROLL,
    TURN_END,
    Link,
    State,
    responders,
    step_marker,
    targets,
)


def could_answer(state: State, link: Link, seats: list[Seat]) -> bool:
    """Return True if any of `seats` holds a card that may answer `link` now."""
    return any(
        response_problem(state, seat, card, link) is None
        for seat in seats
        for card in state.hands[seat]
    )


def _opened(link: Link, seats: list[Seat]) -> Event:
    return event(
        "WindowOpened",
        seat=link.seat,
        card=link.card,
        target=link.target,
        step=link.kind,
        responders=seats,
    )


def react(state: State) -> list[Event]:
    """Open a window on the top card of the chain, or let it take effect at once."""
    link = state.top
    seats = responders(state, link.seat)
    if seats and could_answer(state, link, seats):
        return [_opened(link, seats)]
    return resolve_pending(state) if link.kind == PLAYED else settle(state)


def step_window(state: State) -> list[Event]:
    """At a public step of the turn, open a window for every player holding cards if one of
    them could play an any-time card there (once per step); else nothing happens."""
    marker = step_marker(state)
    if marker is None or state.held == marker:
        return []
    link = Link(None, None, None, BEFORE_ROLL if state.phase == ROLL else TURN_END)
    seats = responders(state, None)
    if seats and could_answer(state, link, seats):
        return [_opened(link, seats)]
    return []


def answer(state: State) -> list[Event]:
    """Put the next revealed answer that still has something to do on the chain, or close
    the window (answers left over stay in their owners' hands, never named)."""
    link = state.top
    for seat, inst in link.window.queue:
        card = state.card(inst)
        if answer_has_effect(state, seat, card, link):
            seats = [link.seat] if card.kind == "cancel" else targets(state, seat, card)
            aim = len(seats) > 1
            target = None if aim else seats[0]
            return [event("ResponsePlayed", seat=seat, card=inst, target=target, aim=aim)]
    return [event("WindowClosed", cancelled=link.cancelled)]


def settle(state: State) -> list[Event]:
    """Let the answer on top of the chain take effect: a cancel takes away the card below."""
    top, below = state.chain[-1], state.chain[-2]
    card = state.card(top.card)
    if card.kind == "cancel":
        return [
            event("PlayCancelled", seat=below.seat, card=below.card, by=top.seat, cancel=top.card)
        ]
    done = event("ResponseResolved", seat=top.seat, card=top.card, target=top.target)
    return [done, *side_effects(evolve(state, done), card, top.target)]

"""Four players: the Excuse holder hands out the Crowns, one decision at a time.

The holder gives each other seat one Crown that matches none of that seat's Aces and
keeps one; the last two are set aside. Any order works: each seat's Aces rule out only
two Crowns, so a fitting step never leaves a seat without a fitting Crown (checked
exhaustively in the tests). `random_crowns` draws a uniformly random valid completion.
"""

from __future__ import annotations

from itertools import permutations

from games.base import Event, RuleViolation, Seat
from games.rng import Rng
from games.sorcerous_futures.events import event
from games.sorcerous_futures.state import State, matches_aces

Completion = tuple[tuple[Seat, str], ...]  # (seat, crown) pairs; the holder's pair = kept


def recipients(state: State) -> list[Seat]:
    """Return the seats, holder included, still waiting for a Crown, in seating order."""
    return [s for s in state.order if state.crowns[s] is None]


def fits(state: State, seat: Seat, crown: str) -> bool:
    """Return True if `seat` may receive `crown` (the holder may keep any Crown)."""
    return seat == state.excuse_holder or not matches_aces(crown, state.aces[seat])


def completions(state: State) -> list[Completion]:
    """Return every valid way to finish the assignment, in a deterministic order."""
    hand = list(state.holding[state.excuse_holder])
    seats = recipients(state)
    out = []
    for picked in permutations(hand, len(seats)):
        pairs = tuple(zip(seats, picked, strict=True))
        if all(fits(state, s, c) for s, c in pairs):
            out.append(pairs)
    return out


def steps(state: State) -> list[tuple[Seat, str]]:
    """Return every (seat, crown) the holder may hand out (or keep) next."""
    hand = state.holding[state.excuse_holder]
    return [(s, c) for s in recipients(state) for c in hand if fits(state, s, c)]


def pair_event(state: State, seat: Seat, crown: str, drawn: bool = False) -> Event:
    """Return the secret event that puts `crown` in front of `seat`."""
    holder = state.excuse_holder
    if seat == holder:
        return event("CrownKept", (holder,), seat=seat, crown=crown, random=drawn)
    return event("CrownGiven", (holder, seat), seat=seat, crown=crown, random=drawn)


def check_pair(state: State, seat: Seat, crown: str) -> None:
    """Refuse a Crown the holder does not hold, a seat already served, or a matching Crown."""
    if crown not in state.holding[state.excuse_holder]:
        raise RuleViolation(f"{crown!r} is not in hand", code="crown_not_available", field="crown")
    if seat not in recipients(state):
        code = "crown_already_kept" if seat == state.excuse_holder else "crown_already_given"
        raise RuleViolation(f"seat {seat} already has a Crown", code=code, field="seat")
    if not fits(state, seat, crown):
        raise RuleViolation(
            f"{crown!r} matches an Ace of seat {seat}", code="crown_matches_aces", field="crown"
        )


def give(state: State, seat: Seat, crown: str) -> list[Event]:
    """Give `crown` to another seat."""
    if seat not in state.order or seat == state.excuse_holder:
        raise RuleViolation(f"seat {seat} cannot be given a Crown", code="invalid_recipient")
    check_pair(state, seat, crown)
    return [pair_event(state, seat, crown)]


def keep(state: State, crown: str) -> list[Event]:
    """Keep `crown` for the holder."""
    check_pair(state, state.excuse_holder, crown)
    return [pair_event(state, state.excuse_holder, crown)]


def draw(state: State, rng: Rng) -> list[Event]:
    """Finish the assignment with a uniformly random valid completion."""
    pairs = rng.choice(completions(state))
    return [pair_event(state, seat, crown, drawn=True) for seat, crown in pairs]


def set_aside(state: State) -> list[Event]:
    """Set the Crowns left in the holder's hand aside once every seat has one."""
    holder = state.excuse_holder
    return [event("CrownsSetAside", (holder,), seat=holder, crowns=list(state.holding[holder]))]

"""The three-player crown ritual, played out step by step with seeded shuffles.

Every Crown travels face down: no seat looks at one until the last step, when each
keeps one Crown (seen by its owner only) and sets the other aside unseen. As the product
rulings fix it for this ritual, passing to the right goes to the next seat in order and
passing to the left to the previous seat.
"""

from __future__ import annotations

from games.base import Event, Seat
from games.kit import left_of, right_of
from games.rng import Rng
from games.sorcerous_futures.events import event
from games.sorcerous_futures.state import State, crown_of, suit_of

Hands = dict[Seat, list[str]]
RIGHT, LEFT = left_of, right_of  # RULINGS: in the ritual, right = next seat, left = previous


def _shuffle_all(state: State, hands: Hands, rng: Rng) -> list[Event]:
    events = []
    for seat in state.order:
        hands[seat] = rng.shuffle(hands[seat])
        events.append(event("CrownsShuffled", (), seat=seat, crowns=list(hands[seat])))
    return events


def _pass(state: State, hands: Hands, packets: dict[Seat, list[str]], to) -> list[Event]:
    events = []
    for seat in state.order:
        packet = packets[seat]
        hands[seat] = [c for c in hands[seat] if c not in packet]
        route = {"from": seat, "to": to(state, seat)}
        events.append(event("CrownsPassed", (), **route, crowns=packet))
    for seat in state.order:
        hands[to(state, seat)].extend(packets[seat])
    return events


def taken(state: State) -> Hands:
    """Return the two Crowns each seat takes: those matching its Aces."""
    return {s: [crown_of(suit_of(a)) for a in state.aces[s]] for s in state.order}


def ritual(state: State, rng: Rng) -> list[Event]:
    """Return the events of the whole ritual, from taking the Crowns to keeping one."""
    hands = taken(state)
    events = [
        event("CrownsTaken", crowns=[{"seat": s, "crowns": list(hands[s])} for s in state.order])
    ]
    events += _shuffle_all(state, hands, rng)
    events += _pass(state, hands, {s: list(hands[s]) for s in state.order}, RIGHT)
    events += _shuffle_all(state, hands, rng)
    events += _pass(state, hands, {s: hands[s][:1] for s in state.order}, LEFT)
    events += _shuffle_all(state, hands, rng)
    events += _pass(state, hands, {s: list(hands[s]) for s in state.order}, RIGHT)
    events += _shuffle_all(state, hands, rng)
    for seat in state.order:
        kept, aside = hands[seat]
        events.append(event("CrownKept", (seat,), seat=seat, crown=kept, random=True))
        events.append(event("CrownsSetAside", (), seat=seat, crowns=[aside]))
    return events

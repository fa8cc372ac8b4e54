"""Scenario helpers for Sorcerous Futures tests: lay out a table, then play moves on it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.base import Event
from games.decktet import cards
from games.rng import NoRng, Rng
from games.sorcerous_futures import GAME
from games.sorcerous_futures.events import event
from games.sorcerous_futures.flow import play
from games.sorcerous_futures.state import EXCUSE, State, all_crowns, valuation_cards

SUIT_OF = {name: card.suits[0] for name, card in cards().items() if card.rank in ("Ace", "Crown")}


def set_up(players: int, seed: int, order=None, **options) -> tuple[State, list[Event]]:
    """Run setup; return the state and its events."""
    order = tuple(range(players)) if order is None else order
    opts = GAME.normalize_options(options, players)
    events = GAME.setup(opts, order, Rng(f"setup-{seed}".encode()))
    state = None
    for ev in events:
        state = GAME.evolve(state, ev)
        GAME.check_invariants(state)
    return state, events


def aces_of(state: State, seat: int) -> set[str]:
    """Return the suits of the Aces in front of `seat`."""
    return {SUIT_OF[a] for a in state.aces[seat]}


THREE_ACES = {
    0: ["Ace of Moons", "Ace of Suns"],
    1: ["Ace of Waves", "Ace of Leaves"],
    2: ["Ace of Wyrms", "Ace of Knots"],
}
THREE_CROWNS = {0: "The Sea", 1: "The Calamity", 2: "The Bard"}  # Waves, Wyrms, Suns
FOUR_ACES = {1: THREE_ACES[0], 2: THREE_ACES[1], 3: THREE_ACES[2]}  # seat 0 holds the Excuse
FOUR_CROWNS = {0: "The Huntress", 1: "The Sea", 2: "The Calamity", 3: "The Bard"}
VALUATIONS = {
    "Ace of Moons": "The Harvest",  # a Pawn: Moons are worth 1
    "Ace of Suns": "The Castle",  # Suns are worth 7
    "Ace of Waves": "The Author",
    "Ace of Leaves": "The Desert",
    "Ace of Wyrms": "The Origin",
    "Ace of Knots": "The Journey",
    EXCUSE: "The Painter",  # a 3
}
ROW = ["The Mountain", "The Watchman", "The Sailor", "The Battle", "The Forest"]


def _crown_events(aces: dict[int, list[str]], crowns: dict[int, str], holder) -> list[Event]:
    spare = [c for c in all_crowns() if c not in crowns.values()]
    if holder is None:
        taken = [{"seat": s, "crowns": [crowns[s], spare[i]]} for i, s in enumerate(sorted(aces))]
        events = [event("CrownsTaken", crowns=taken)]
        for i, seat in enumerate(sorted(aces)):
            events.append(event("CrownKept", (seat,), seat=seat, crown=crowns[seat], random=True))
            events.append(event("CrownsSetAside", (), seat=seat, crowns=[spare[i]]))
        return events
    events = [event("CrownsTaken", crowns=[{"seat": holder, "crowns": all_crowns()}])]
    for seat in sorted(aces):
        given = {"seat": seat, "crown": crowns[seat], "random": False}
        events.append(event("CrownGiven", (holder, seat), **given))
    events.append(event("CrownKept", (holder,), seat=holder, crown=crowns[holder], random=False))
    return [*events, event("CrownsSetAside", (holder,), seat=holder, crowns=spare)]


def table(
    players: int = 3,
    valuations: dict[str, str] | None = None,
    row: list[str] | None = None,
    gold: list[int] | None = None,
    deck_top: list[str] = (),
    sly: bool = False,
) -> tuple[State, list[Event]]:
    """Seat 3 or 4 players in order 0, 1, 2(, 3) with known Aces, Crowns and valuations.

    Three players: THREE_ACES/THREE_CROWNS, the Excuse at the table's edge. Four players:
    seat 0 holds the Excuse, FOUR_ACES/FOUR_CROWNS. The first row is `row`, then the deck
    continues with `deck_top` and the other cards in data order. Seat 0 holds the Ace of
    Suns in three-player games (seat 1 with four), so it is the first active player.
    """
    holder = 0 if players == 4 else None
    aces = FOUR_ACES if players == 4 else THREE_ACES
    crowns = FOUR_CROWNS if players == 4 else THREE_CROWNS
    vals = {**VALUATIONS, **(valuations or {})}
    row = list(ROW if row is None else row)
    first = [*vals.values(), *row, *deck_top]
    deck = [*first, *[c for c in valuation_cards() if c not in first]]
    spots = [a for s in sorted(aces) for a in aces[s]] + [EXCUSE]
    events = [
        event("GameStarted", order=list(range(players)), sly_excuse=sly),
        event("ExcusePlaced", seat=holder),
        event("AcesDealt", aces=[{"seat": s, "aces": aces[s]} for s in sorted(aces)]),
        *_crown_events(aces, crowns, holder),
        event("DeckShuffled", (), cards=deck),
    ]
    for spot in spots:
        owner = holder if spot == EXCUSE else next((s for s in aces if spot in aces[s]), None)
        seen = () if owner is None else (owner,)
        events.append(event("ValuationDealt", seen, under=spot, card=vals[spot]))
    events += [
        event("RowDealt", group=1, cards=row),
        event("TurnStarted", seat=1 if players == 4 else 0, number=1),
    ]
    state = None
    for ev in events:
        state = GAME.evolve(state, ev)
    if gold is not None:
        state = replace(state, gold=tuple(gold))
    GAME.check_invariants(state)
    return state, events


def act(
    state: State, *moves: tuple[int, dict[str, Any]], rng: Rng | None = None
) -> tuple[State, list[Event]]:
    """Play `moves` (seat, action) in turn; return the new state and every event caused."""
    out: list[Event] = []
    for seat, action in moves:
        events = GAME.decide(state, seat, action, rng or NoRng())
        state = fold(state, events)
        out.extend(events)
    return state, out


def resolve(state: State, rng: Rng | None = None) -> tuple[State, list[Event]]:
    """Resolve the ready sealed-bid phase as a worker would."""
    events = GAME.resolve(state, rng or NoRng())
    return fold(state, events), events


def fold(state: State, events: list[Event]) -> State:
    """Apply `events`, checking invariants after each."""
    for ev in events:
        state = GAME.evolve(state, ev)
        GAME.check_invariants(state)
    return state


def run_on(state: State) -> tuple[State, list[Event]]:
    """Run the automatic steps from `state` (after a test edited it)."""
    return play(state, [], NoRng())


def names(events: list[Event]) -> list[str]:
    """Return the short names of `events`, e.g. "BidPlaced"."""
    return [ev.type.split(".", 1)[1] for ev in events]


def only(events: list[Event], name: str) -> list[dict[str, Any]]:
    """Return the data of the events called `name`."""
    return [ev.data for ev in events if ev.type.endswith("." + name)]


def start(card: str, fmt: str) -> dict[str, Any]:
    """Return the active player's action that puts `card` up in format `fmt`."""
    return {"type": "start_auction", "card": card, "format": fmt}


def bid(amount: int) -> dict[str, Any]:
    """Return an open-auction bid."""
    return {"type": "bid", "amount": amount}


def sealed(amount: int) -> dict[str, Any]:
    """Return a closed-auction sealed bid."""
    return {"type": "sealed_bid", "amount": amount}


PASS = {"type": "pass"}


def quick_auction(state: State, amounts: dict[int, int] | None = None) -> tuple[State, list[Event]]:
    """Sell the first card of the row in a closed auction; seat s bids amounts[s] (or 0)."""
    amounts = amounts or {}
    state, events = act(state, (state.active, start(state.row[0], "closed")))
    state, more = act(state, *[(s, sealed(amounts.get(s, 0))) for s in state.order])
    state, last = resolve(state)
    return state, events + more + last

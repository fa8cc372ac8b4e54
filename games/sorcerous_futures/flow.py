"""The automatic part of the game: every step the rules take until a player must decide."""

from __future__ import annotations

from collections.abc import Callable

from games.base import Event
from games.decktet import cards
from games.kit import left_of, run_steps
from games.rng import Rng
from games.sorcerous_futures import assignment
from games.sorcerous_futures.events import event
from games.sorcerous_futures.evolve import evolve
from games.sorcerous_futures.scoring import scored_event
from games.sorcerous_futures.state import (
    CROWNS,
    DEAL,
    EXCUSE,
    EXCUSE_REVEAL_GROUP,
    FIRST_ACE,
    GROUPS,
    NEXT,
    OPEN,
    ROW_SIZE,
    State,
    is_complete,
    owner_of,
    valuation_cards,
    valuation_under,
)

DATA_ORDER = {name: i for i, name in enumerate(cards())}


def unders(state: State) -> list[str]:
    """Return where valuation cards go, in dealing order: each seat's Aces, then the Excuse."""
    return [a for s in state.order for a in state.aces[s]] + [EXCUSE]


def deal(state: State, rng: Rng) -> list[Event]:
    """Shuffle the valuation deck, deal the valuations, the first row and the first turn."""
    deck = rng.shuffle(valuation_cards())
    spots = unders(state)
    top = deck[: len(spots)]
    events = [event("DeckShuffled", (), cards=deck)]
    if state.sly:
        holder = state.excuse_holder
        drawn = sorted(top, key=DATA_ORDER.__getitem__)
        events.append(event("ValuationCardsDrawn", (holder,), seat=holder, cards=drawn))
        top = rng.shuffle(drawn)
        events.append(event("ValuationCardsShuffled", (), cards=top))
    for under, card in zip(spots, top, strict=True):
        owner = owner_of(state, under)
        seen = (owner,) if owner is not None else ()
        events.append(event("ValuationDealt", seen, under=under, card=card))
    rest = deck[len(spots) :]
    first = owner_of(state, FIRST_ACE)
    return [
        *events,
        event("RowDealt", group=1, cards=rest[:ROW_SIZE]),
        event("TurnStarted", seat=first, number=1),
    ]


def close_bidding(state: State) -> list[Event]:
    """Pass a seat that cannot raise, or give the card to the high bidder once all had a go."""
    if state.queue:
        seat = state.queue[0]
        if state.gold[seat] > state.high and seat != state.high_bidder:
            return []
        return [event("BidPassed", seat=seat, forced=True)]
    won = {"seat": state.high_bidder, "card": state.lot, "amount": state.high}
    return [event("AuctionWon", **won, format="open")]


def end(state: State) -> list[Event]:
    """Reveal every valuation and Crown, then score."""
    shown = [{"under": u, "card": c} for u, c in state.valuations]
    crowns = [{"seat": s, "crown": state.crowns[s]} for s in state.order]
    return [
        event("ValuationsRevealed", valuations=shown),
        event("CrownsRevealed", crowns=crowns),
        scored_event(state),
    ]


def next_turn(state: State) -> list[Event]:
    """Move the turn left, dealing a new row (and revealing the Excuse) when needed."""
    events = []
    if not state.row:
        if state.group >= GROUPS:
            return end(state)
        if len(state.order) == 3 and state.group == EXCUSE_REVEAL_GROUP:
            events.append(event("ExcuseValuationRevealed", card=valuation_under(state, EXCUSE)))
        events.append(event("RowDealt", group=state.group + 1, cards=list(state.deck[:ROW_SIZE])))
    seat = left_of(state, state.active)
    return [*events, event("TurnStarted", seat=seat, number=state.auctions + 1)]


def crowns_done(state: State) -> list[Event]:
    """Set the last two Crowns aside once the holder has handed out every Crown."""
    return assignment.set_aside(state) if is_complete(state) else []


def _steps(rng: Rng) -> dict[str, Callable[[State], list[Event]]]:
    return {
        CROWNS: crowns_done,
        DEAL: lambda state: deal(state, rng),
        OPEN: close_bidding,
        NEXT: next_turn,
    }


def play(state: State, events: list[Event], rng: Rng) -> tuple[State, list[Event]]:
    """Apply `events`, then run the rules on their own until a decision is owed or the end."""
    return run_steps(state, events, evolve, _steps(rng))

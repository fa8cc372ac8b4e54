"""The frozen state of a Sorcerous Futures game and the small queries the rules ask of it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.base import Seat
from games.decktet import cards, of_rank
from games.kit import SETUP

GAME_ID = "sorcerous-futures"
START_GOLD = 90
ROW_SIZE = 5
GROUPS = 4
EXCUSE = "The Excuse"
FIRST_ACE = "Ace of Suns"
PAWN_OPENING_BID = 10
EXCUSE_REVEAL_GROUP = 2  # three players: the Excuse's card is shown once this group is sold

# Phases. CROWNS, CHOOSE, OPEN and SEALED wait for players; the rules run the others alone.
CROWNS = "crowns"
DEAL = "deal"
CHOOSE = "choose"
OPEN = "open"
SEALED = "sealed"
NEXT = "next"
FORMATS = ("open", "closed")


@dataclass(frozen=True)
class State:
    """Everything on the table. Per-seat tuples are indexed by seat number."""

    order: tuple[Seat, ...]
    sly: bool = False
    phase: str = SETUP
    excuse_holder: Seat | None = None
    aces: tuple[tuple[str, ...], ...] = ()
    holding: tuple[tuple[str, ...], ...] = ()  # Crowns in hand during the ritual/assignment
    crowns: tuple[str | None, ...] = ()
    set_aside: tuple[str, ...] = ()
    deck: tuple[str, ...] = ()
    pool: tuple[str, ...] = ()  # sly Excuse: the seven drawn valuation cards
    valuations: tuple[tuple[str, str], ...] = ()  # (Ace name or EXCUSE, card under it)
    excuse_revealed: bool = False
    revealed: bool = False  # every valuation and Crown shown at the end
    gold: tuple[int, ...] = ()
    owned: tuple[tuple[str, ...], ...] = ()
    group: int = 0
    row: tuple[str, ...] = ()
    active: Seat | None = None
    auctions: int = 0
    lot: str | None = None
    format: str | None = None
    high: int = 0
    high_bidder: Seat | None = None
    queue: tuple[Seat, ...] = ()  # open auction: seats still to get their one chance
    bids: tuple[tuple[Seat, int], ...] = ()  # open auction bids, public
    passed: tuple[Seat, ...] = ()
    sealed: tuple[tuple[Seat, int], ...] = ()  # closed auction: secret until revealed
    last: dict[str, Any] | None = None  # the last auction's public outcome
    decisions: int = 0


def valuation_cards() -> list[str]:
    """Return the 28 cards that value suits or are sold: number cards and Pawns."""
    return of_rank("2", "3", "4", "5", "6", "7", "8", "9", "Pawn")


def all_crowns() -> list[str]:
    """Return the six Crowns in suit order."""
    return of_rank("Crown")


def all_aces() -> list[str]:
    """Return the six Aces in suit order."""
    return of_rank("Ace")


def crown_of(suit: str) -> str:
    """Return the Crown of `suit`."""
    return next(c for c in all_crowns() if cards()[c].suits == (suit,))


def suit_of(card: str) -> str:
    """Return the one suit of an Ace or a Crown."""
    return cards()[card].suits[0]


def matches_aces(crown: str, aces: tuple[str, ...] | list[str]) -> bool:
    """Return True if `crown` shares its suit with one of `aces`."""
    return suit_of(crown) in {suit_of(a) for a in aces}


def value(card: str) -> int:
    """Return what a valuation card is worth: its rank, or 1 for a Pawn."""
    rank = cards()[card].rank
    return 1 if rank == "Pawn" else int(rank)


def opening_bid(card: str) -> int:
    """Return the opening bid of an open auction for `card`: its rank, or 10 for a Pawn."""
    rank = cards()[card].rank
    return PAWN_OPENING_BID if rank == "Pawn" else int(rank)


def owner_of(state: State, under: str) -> Seat | None:
    """Return the seat in front of which the Ace (or the Excuse) `under` lies."""
    if under == EXCUSE:
        return state.excuse_holder
    return next((s for s in state.order if under in state.aces[s]), None)


def valuation_under(state: State, under: str) -> str | None:
    """Return the card under an Ace or the Excuse, if it was dealt."""
    return dict(state.valuations).get(under)


def sealed_bids(state: State) -> dict[Seat, int]:
    """Return the sealed bids submitted so far in a closed auction."""
    return dict(state.sealed)


def is_complete(state: State) -> bool:
    """Return True once every seat has its Crown."""
    return bool(state.crowns) and all(c is not None for c in state.crowns)

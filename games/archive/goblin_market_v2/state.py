"""The frozen state of a Goblin Market game and the small queries the rules ask of it."""

from __future__ import annotations

from dataclasses import dataclass

from games.base import Seat
from games.archive.goblin_market_v2.shared.decktet import cards
from games.archive.goblin_market_v2.shared.kit import SETUP

GAME_ID = "goblin-market"
START_COINS = 10
FINAL_AUCTION_MAX = 3

# Phases. Bidding and the two choices wait for a player; the rules run the others alone.
BIDDING = "bidding"
SPLIT_CHOICE = "split_choice"
CARD_CHOICE = "card_choice"
DISTRIBUTE = "distribute"
SISTERHOOD = "sisterhood"
GOBLIN = "goblin"
NEXT = "next"

RANK_STEP = {"Ace": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "Crown": 10}
SIZE_BY_RANK = {"Ace": 1, "Crown": 3}


@dataclass(frozen=True)
class State:
    """Everything on the table. Per-seat tuples (`coins`, `owned`) follow `order`."""

    order: tuple[Seat, ...]
    edition: str = "en"
    courts: bool = True
    coins: tuple[int, ...] = ()
    owned: tuple[tuple[str, ...], ...] = ()
    auction_deck: tuple[str, ...] = ()
    goblin_deck: tuple[str, ...] = ()
    goblin_used: tuple[str, ...] = ()
    goblin_shown: str | None = None
    set_aside: tuple[str, ...] = ()
    discards: tuple[str, ...] = ()
    phase: str = SETUP
    auctions: int = 0
    size_card: str | None = None
    final: bool = False
    offer: tuple[str, ...] = ()
    size: int = 0
    opener: Seat = 0
    bids: tuple[tuple[Seat, int], ...] = ()
    passed: tuple[Seat, ...] = ()
    high: int = 0
    high_bidder: Seat | None = None
    to_act: Seat | None = None
    winner: Seat | None = None
    receivers: tuple[Seat, ...] = ()
    decisions: int = 0


def index(state: State, seat: Seat) -> int:
    """Return the position of `seat` in the seating order."""
    return state.order.index(seat)


def coins_of(state: State, seat: Seat) -> int:
    """Return the coins `seat` holds."""
    return state.coins[index(state, seat)]


def owned_by(state: State, seat: Seat) -> tuple[str, ...]:
    """Return the cards `seat` owns, in the order they were taken."""
    return state.owned[index(state, seat)]


def auction_size(card: str) -> int:
    """Return how many cards the auction announced by `card` offers."""
    return SIZE_BY_RANK.get(cards()[card].rank, 2)


def last_bids(state: State) -> dict[Seat, int]:
    """Return each bidder's last (highest) bid of the current auction."""
    return dict(state.bids)


def placed(state: State) -> list[Seat]:
    """Return the bidders of the current auction, highest last bid first."""
    last = last_bids(state)
    return sorted(last, key=lambda seat: -last[seat])


def next_bidder(state: State, after: Seat) -> Seat | None:
    """Return who bids after `after`, or None once the bidding is over."""
    active = [s for s in state.order if s not in state.passed]
    if not active or active == [state.high_bidder]:
        return None
    n = len(state.order)
    start = index(state, after)
    for step in range(1, n + 1):
        seat = state.order[(start + step) % n]
        if seat not in state.passed:
            return seat
    return None


def next_opener(state: State) -> Seat:
    """Return who opens the next auction: the last winner, or the same opener after all passed."""
    return state.winner if state.winner is not None else state.opener


def can_bid(state: State, seat: Seat) -> bool:
    """Return True if `seat` holds more coins than the current high bid."""
    return coins_of(state, seat) > state.high


def rank_step(card: str) -> int:
    """Return a card's place on the 1..10 wheel used by sisterhood money (Crown = 10)."""
    return RANK_STEP[cards()[card].rank]


def goblin_cards(courts: bool) -> list[str]:
    """Return the Goblin Deck's cards: Pawns, and Courts unless `courts` is False."""
    ranks = ("Pawn", "Court") if courts else ("Pawn",)
    return [c.name for c in cards().values() if c.rank in ranks]

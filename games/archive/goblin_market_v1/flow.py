"""The automatic part of the game: every step the rules take until a player must decide."""

from __future__ import annotations

from collections.abc import Callable

from games.base import Event
from games.archive.goblin_market_v1 import payouts
from games.archive.goblin_market_v1.events import event
from games.archive.goblin_market_v1.evolve import evolve
from games.archive.goblin_market_v1.scoring import scored_event
from games.archive.goblin_market_v1.state import (
    BIDDING,
    DISTRIBUTE,
    FINAL_AUCTION_MAX,
    GOBLIN,
    NEXT,
    SISTERHOOD,
    State,
    auction_size,
    can_bid,
    next_opener,
)
from games.archive.goblin_market_v1.shared.kit import run_steps
from games.rng import Rng


def close_bidding(state: State) -> list[Event]:
    """Pass a seat that cannot outbid automatically, or end a finished bidding round."""
    if state.to_act is not None:
        if can_bid(state, state.to_act):
            return []
        return [event("BidPassed", seat=state.to_act, forced=True)]
    if state.high_bidder is None:
        return [event("AllPassed", discarded=list(state.offer))]
    return [event("AuctionWon", seat=state.high_bidder, amount=state.high)]


def next_auction(state: State) -> list[Event]:
    """Open the next auction (size card, then its cards), the final auction, or end the game."""
    deck = state.auction_deck
    if not deck:
        return [scored_event(state)]
    if len(deck) <= FINAL_AUCTION_MAX:
        head = [event("FinalAuctionStarted", size=len(deck))]
        shown = list(deck)
    else:
        size = auction_size(deck[0])
        head = [event("AuctionSizeRevealed", card=deck[0], size=size)]
        shown = list(deck[1 : 1 + size])
    return [*head, event("AuctionCardsRevealed", cards=shown, opener=next_opener(state))]


def _steps(rng: Rng) -> dict[str, Callable[[State], list[Event]]]:
    return {
        BIDDING: close_bidding,
        DISTRIBUTE: payouts.distribute,
        SISTERHOOD: payouts.sisterhood,
        GOBLIN: lambda state: payouts.goblin(state, rng),
        NEXT: next_auction,
    }


def play(state: State, events: list[Event], rng: Rng) -> tuple[State, list[Event]]:
    """Apply `events`, then run the rules on their own until a decision is owed or the end."""
    return run_steps(state, events, evolve, _steps(rng))

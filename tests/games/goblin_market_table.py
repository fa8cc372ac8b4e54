"""Scenario helpers for Goblin Market tests: lay out a table, then play moves on it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.base import Event
from games.decktet import basic_deck
from games.goblin_market import GAME
from games.goblin_market.events import event
from games.goblin_market.flow import play
from games.goblin_market.state import State, goblin_cards
from games.rng import NoRng, Rng


def table(
    coins: list[int],
    deck_top: list[str] = (),
    goblin_top: list[str] = (),
    owned: dict[int, list[str]] | None = None,
    edition: str = "en",
    courts: bool = True,
    deck_size: int | None = None,
) -> tuple[State, list[Event]]:
    """Seat len(coins) players (seat i holds coins[i], seat 0 first) and open the first auction.

    The auction deck starts with `deck_top`, then the other basic cards in data order,
    cut to `deck_size` cards; cards in `owned` are already in front of their owners.
    """
    owned = owned or {}
    held = [c for cards in owned.values() for c in cards]
    rest = [c for c in basic_deck() if c not in deck_top and c not in held]
    deck = [*deck_top, *rest]
    parked = []
    if deck_size is not None:
        deck, parked = deck[:deck_size], deck[deck_size:]
    goblins = [*goblin_top, *[c for c in goblin_cards(courts) if c not in goblin_top]]
    order = list(range(len(coins)))
    setup = [
        event("GameStarted", order=order, edition=edition, courts=courts),
        event("DecksShuffled", visible_to=(), auction_deck=deck, goblin_deck=goblins),
        event("CoinsDealt", coins=[{"seat": s, "coins": c} for s, c in enumerate(coins)]),
    ]
    state = None
    for ev in setup:
        state = GAME.evolve(state, ev)
    state = replace(
        state, owned=tuple(tuple(owned.get(s, ())) for s in order), discards=tuple(parked)
    )
    state, events = play(state, [], NoRng())
    GAME.check_invariants(state)
    return state, events


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


def names(events: list[Event]) -> list[str]:
    """Return the short names of `events`, e.g. "BidPlaced"."""
    return [ev.type.split(".", 1)[1] for ev in events]


def only(events: list[Event], name: str) -> list[dict[str, Any]]:
    """Return the data of the events called `name`."""
    return [ev.data for ev in events if ev.type.endswith("." + name)]


def bid(amount: int) -> dict[str, Any]:
    """Return a bid action."""
    return {"type": "bid", "amount": amount}


PASS = {"type": "pass"}
TAKE_ALL = {"type": "take_all"}


def take_one(card: str) -> dict[str, Any]:
    """Return the winner's action that keeps one card and shares the rest."""
    return {"type": "take_one", "card": card}


def choose(card: str) -> dict[str, Any]:
    """Return second place's pick in a three-card split."""
    return {"type": "choose", "card": card}

"""Final scoring: a player's three biggest suits count for them, the other three against."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from games.base import Event, Result, Seat
from games.archive.goblin_market_v1.shared.decktet import SUITS, cards
from games.archive.goblin_market_v1.events import event
from games.archive.goblin_market_v1.state import State, owned_by
from games.archive.goblin_market_v1.shared.kit import ranked

POSITIVE_SUITS = 3


@dataclass(frozen=True)
class Score:
    """One player's figures: `score` = `positive` - `negative`; `suits` counts cards per suit."""

    seat: Seat
    score: int
    positive: int
    suits: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        """Return the figures as JSON-safe data."""
        return {
            "seat": self.seat,
            "score": self.score,
            "positive": self.positive,
            "suits": dict(self.suits),
        }


def suit_counts(owned: Iterable[str]) -> dict[str, int]:
    """Return how many of the cards `owned` show each suit (a number card counts twice)."""
    counts = dict.fromkeys(SUITS, 0)
    table = cards()
    for card in owned:
        for suit in table[card].suits:
            counts[suit] += 1
    return counts


def score_cards(seat: Seat, owned: Iterable[str]) -> Score:
    """Score a set of cards: top three suits (ties in suit order) plus, the rest minus."""
    counts = suit_counts(owned)
    ranked = sorted(SUITS, key=lambda suit: (-counts[suit], SUITS.index(suit)))
    positive = sum(counts[s] for s in ranked[:POSITIVE_SUITS])
    negative = sum(counts[s] for s in ranked[POSITIVE_SUITS:])
    return Score(seat, positive - negative, positive, counts)


def scores(state: State) -> list[Score]:
    """Return every seat's current score, in seating order."""
    return [score_cards(seat, owned_by(state, seat)) for seat in state.order]


def tie_key(state: State, score: Score) -> tuple[int, ...]:
    """Return the ranking key: (score, positive) in the en edition, (score,) in es."""
    return (score.score, score.positive) if state.edition == "en" else (score.score,)


def result(state: State) -> Result:
    """Return the standings: most points first, ties as the edition says."""
    table = scores(state)
    points = {s.seat: s.score for s in table}
    keys = {s.seat: tie_key(state, s) for s in table}
    detail = {"scores": [s.to_json() for s in table], "edition": state.edition}
    return ranked(state.order, points, keys, detail)


def scored_event(state: State) -> Event:
    """Build the event that ends the game with the final scores and winners."""
    res = result(state)
    return event("GameScored", scores=res.detail["scores"], winners=list(res.winners))

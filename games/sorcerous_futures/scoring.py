"""Final scoring: gold left, bought cards at their suits' valuations, and the Crown bonus."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.base import Event, Result, Seat
from games.decktet import cards
from games.kit import ranked
from games.sorcerous_futures.events import event
from games.sorcerous_futures.state import EXCUSE, State, suit_of, valuation_under, value


@dataclass(frozen=True)
class Score:
    """One player's figures: `score` = `gold` + `cards` + `crown_bonus`."""

    seat: Seat
    gold: int
    cards: int
    crown_bonus: int
    valuation_total: int  # the tie-break: lower is better

    @property
    def score(self) -> int:
        return self.gold + self.cards + self.crown_bonus

    def to_json(self) -> dict[str, Any]:
        """Return the figures as JSON-safe data."""
        return {
            "seat": self.seat,
            "score": self.score,
            "gold": self.gold,
            "cards": self.cards,
            "crown_bonus": self.crown_bonus,
            "valuation_total": self.valuation_total,
        }


def suit_values(state: State) -> dict[str, int]:
    """Return what each suit is worth: the value of the card under its Ace (0 if none)."""
    out = {}
    for under, card in state.valuations:
        if under != EXCUSE:
            out[suit_of(under)] = value(card)
    return out


def excuse_value(state: State) -> int:
    """Return the Crown bonus per card: the value of the card under the Excuse."""
    card = valuation_under(state, EXCUSE)
    return value(card) if card else 0


def card_worth(card: str, suits: dict[str, int]) -> int:
    """Return what a bought card scores: the sum of its suits' valuations."""
    return sum(suits.get(suit, 0) for suit in cards()[card].suits)


def front_total(state: State, seat: Seat) -> int:
    """Return the total of the valuation cards in front of `seat` (its Aces, or the Excuse)."""
    unders = [*state.aces[seat], *([EXCUSE] if seat == state.excuse_holder else [])]
    return sum(value(c) for u in unders if (c := valuation_under(state, u)))


def score_of(state: State, seat: Seat) -> Score:
    """Score one seat from the state (valuations and Crowns as dealt)."""
    suits, bonus = suit_values(state), excuse_value(state)
    owned = state.owned[seat]
    crown = state.crowns[seat]
    crown_suit = suit_of(crown) if crown else None
    matching = sum(1 for c in owned if crown_suit in cards()[c].suits)
    worth = sum(card_worth(c, suits) for c in owned)
    return Score(seat, state.gold[seat], worth, matching * bonus, front_total(state, seat))


def result(state: State) -> Result:
    """Return the standings: highest score, then lowest valuation total; then shared."""
    table = [score_of(state, s) for s in state.order]
    detail = {
        "scores": [s.to_json() for s in table],
        "suit_values": suit_values(state),
        "excuse_value": excuse_value(state),
    }
    points = {s.seat: s.score for s in table}
    keys = {s.seat: (s.score, -s.valuation_total) for s in table}
    return ranked(state.order, points, keys, detail)


def scored_event(state: State) -> Event:
    """Build the event that ends the game with the final scores and winners."""
    res = result(state)
    return event("GameScored", scores=res.detail["scores"], winners=list(res.winners))

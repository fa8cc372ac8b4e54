"""Final scoring: cubes on VP spaces, majority and runner-up values per colour, card sets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.base import Event, Result, Seat
from games.archive.black_market_v2.data import COLOURS, VP_TRACK, set_points
from games.archive.black_market_v2.events import event
from games.archive.black_market_v2.goods import Counts, N, to_json
from games.archive.black_market_v2.state import State, effect
from games.archive.black_market_v2.shared.kit import ranked


@dataclass(frozen=True)
class Score:
    """One player's figures; `by_colour` = cubes + bonus per colour (the tie-break)."""

    seat: Seat
    total: int
    cubes: int
    bonus: Counts
    by_colour: Counts
    cards: int
    card_points: int

    def to_json(self) -> dict[str, Any]:
        """Return the figures as JSON-safe data."""
        return {
            "seat": self.seat,
            "total": self.total,
            "cubes": self.cubes,
            "bonus": to_json(self.bonus, full=True),
            "by_colour": to_json(self.by_colour, full=True),
            "cards": self.cards,
            "card_points": self.card_points,
        }


def colour_bonus(counts: list[int], first: int, second: int) -> list[int]:
    """Return each player's majority/runner-up points for one colour from their cube counts.

    A tie for the majority shares first + second (rounded down) and leaves no runner-up;
    a tie for runner-up shares second. A player needs at least one cube to place."""
    out = [0] * len(counts)
    top = max(counts, default=0)
    if top == 0:
        return out
    leaders = [i for i, n in enumerate(counts) if n == top]
    if len(leaders) > 1:
        for i in leaders:
            out[i] = (first + second) // len(leaders)
        return out
    out[leaders[0]] = first
    rest = [n for i, n in enumerate(counts) if i != leaders[0]]
    runner = max(rest, default=0)
    if runner:
        runners = [i for i, n in enumerate(counts) if n == runner and i != leaders[0]]
        for i in runners:
            out[i] = second // len(runners)
    return out


def scores(state: State) -> list[Score]:
    """Return every seat's score, in seat order."""
    bonus = [[0] * N for _ in state.seats]
    for c in range(N):
        first, second = VP_TRACK[state.steps[c]]
        for seat, points in enumerate(colour_bonus([v[c] for v in state.vp], first, second)):
            bonus[seat][c] = points
    out = []
    for seat in state.seats:
        cubes = sum(state.vp[seat])
        by_colour = tuple(state.vp[seat][c] + bonus[seat][c] for c in range(N))
        held = len(state.cards[seat])
        total = cubes + sum(bonus[seat]) + set_points(held)
        out.append(Score(seat, total, cubes, tuple(bonus[seat]), by_colour, held, set_points(held)))
    return out


def colour_ranking(state: State) -> list[int]:
    """Return colour indexes from the highest exchange value down (ties in colour order)."""
    return sorted(range(N), key=lambda c: (-state.rows[c], c))


def tie_key(state: State, score: Score) -> tuple[int, ...]:
    """Return the ranking key: total, holding a card with the `game_tie` effect, then VP by
    colour, best row first."""
    notary = int(bool(effect(state, score.seat, "game_tie")))
    return (score.total, notary, *(score.by_colour[c] for c in colour_ranking(state)))


def result(state: State) -> Result:
    """Return the standings: most VP first, ties broken as the rules and cards say."""
    table = scores(state)
    detail = {
        "scores": [s.to_json() for s in table],
        "end_reason": state.end_reason,
        "colour_ranking": [COLOURS[c] for c in colour_ranking(state)],
    }
    points = {s.seat: s.total for s in table}
    keys = {s.seat: tie_key(state, s) for s in table}
    return ranked(state.order, points, keys, detail)


def scored_event(state: State) -> Event:
    """Build the event that ends the game with the final scores and winners."""
    res = result(state)
    return event(
        "GameScored",
        scores=res.detail["scores"],
        winners=list(res.winners),
        reason=state.end_reason,
    )

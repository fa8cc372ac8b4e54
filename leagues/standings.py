"""League points and ratings from one finished game's places. Pure: no I/O, no clock.

Points: `points[k]` for the (k+1)-th place; players who tie share the places they span
and split those places' points evenly (two tied firsts at a 4-table with the default
[3, 2, 1, 0] get 2.5 each). Ratings: openskill's Plackett-Luce model over the table's
places, ties included; the conservative `ordinal` is mu - 3 sigma.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

DEFAULT_POINTS = (3, 2, 1, 0, 0, 0)
Rating = tuple[float, float]  # (mu, sigma)


@cache
def model() -> PlackettLuce:
    """Return the rating model (openskill's defaults: mu 25, sigma 25/3); imported on first
    use, so that API processes that never rate start faster."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


def initial() -> Rating:
    """Return a new member's rating."""
    return (model().mu, model().sigma)


def ordinal(rating: Rating) -> float:
    """Return the conservative estimate mu - 3 sigma."""
    return round(rating[0] - 3 * rating[1], 6)


def shares(
    places: Mapping[str, int], table: Sequence[float] = DEFAULT_POINTS
) -> dict[str, Fraction]:
    """Return each player's exact league points for `places` (1, 1, 3, ... with ties)."""
    tied: dict[int, int] = {}
    for place in places.values():
        tied[place] = tied.get(place, 0) + 1
    out = {}
    for player, place in places.items():
        spans = range(place - 1, place - 1 + tied[place])
        won = sum(Fraction(table[k]) if k < len(table) else Fraction(0) for k in spans)
        out[player] = won / tied[place]
    return out


def points(places: Mapping[str, int], table: Sequence[float] = DEFAULT_POINTS) -> dict[str, float]:
    """Return each player's league points for `places`, rounded to 4 places (as recorded;
    sums are taken over `shares`, never over these)."""
    return {player: round(float(share), 4) for player, share in shares(places, table).items()}


def rate(ratings: Mapping[str, Rating], places: Mapping[str, int]) -> dict[str, Rating]:
    """Return the players' new ratings after a game they finished in `places`."""
    players = sorted(places)
    m = model()
    teams = [[m.rating(mu=ratings[p][0], sigma=ratings[p][1], name=p)] for p in players]
    rated = m.rate(teams, ranks=[places[p] for p in players])
    return {p: (round(t[0].mu, 6), round(t[0].sigma, 6)) for p, t in zip(players, rated)}


def timeout_streak(marks: Sequence[tuple[str, bool]]) -> int:
    """Return how many decisions in a row ended in a timeout, most recent last.

    `marks` are (time, timed_out) for one member's decisions across their games; a
    decision made in time resets the count."""
    streak = 0
    for _, timed_out in sorted(marks):
        streak = streak + 1 if timed_out else 0
    return streak

"""A game's league points when some seats forfeit. Pure: no I/O, no clock.

A seat forfeits (docs/leagues.md, "Forfeits") when it never made a move of its own (every
decision it had was a default), or when its player resigned because they were removed
from the league or withdrawn for absence. With forfeits on (the league's `forfeit_points`
is a number, 0 by default) each forfeiting seat scores `forfeit_points`, and the players
who played are placed among themselves, keeping their order and ties: at a table of four
where the third never moved, the fourth is placed third and scores third place's points.
With `forfeit_points` null the places stand as the game ended (the old rule: an absent
player scores whatever place the defaults gave them).

`score` is the one place this is computed: the record of a result, the fold of the
league's log and every recount use it, and a ruling (forfeit awarded, points adjusted)
builds on it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from leagues import standings


@dataclass(frozen=True)
class Scored:
    """Each player's exact league points and league place (None for a forfeit)."""

    points: dict[str, Fraction]
    places: dict[str, int | None]


def among(places: Mapping[str, int], players: Collection[str]) -> dict[str, int]:
    """Return `players`' places among themselves: one plus how many of them finished
    strictly ahead (ties stay ties)."""
    return {p: 1 + sum(places[o] < places[p] for o in players) for p in players}


def score(
    places: Mapping[str, int],
    forfeited: Collection[str],
    table: Sequence[float] = standings.DEFAULT_POINTS,
    forfeit_points: float | None = 0,
) -> Scored:
    """Return the league points and places of a game that ended in `places`, where the
    players `forfeited` forfeit (ignored when `forfeit_points` is None)."""
    if forfeit_points is None or not forfeited:
        return Scored(standings.shares(places, table), dict(places))
    played = [p for p in places if p not in forfeited]
    placed = among(places, played)
    points = standings.shares(placed, table) if placed else {}
    points.update({p: Fraction(forfeit_points) for p in places if p in forfeited})
    return Scored(points, {p: placed.get(p) for p in places})


def forfeiting(
    seats: Mapping[int, str],
    acted: Collection[int],
    resigned: Collection[int],
    why_withdrawn: Mapping[str, str],
) -> set[str]:
    """Return the players of `seats` (seat -> its last holder) who forfeit: the seats that
    never `acted` (a move of their own), and the `resigned` ones whose player was removed
    from the league or withdrawn for absence."""
    out = {player for seat, player in seats.items() if seat not in acted}
    gone = ("removed", "absence")
    out |= {seats[s] for s in resigned if s in seats and why_withdrawn.get(seats[s]) in gone}
    return out

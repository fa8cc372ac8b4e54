"""A league's standings table, from its fold. Pure: no I/O, no clock.

Each member's points are the league points of their counted games (aborted games count
for nobody) plus their byes' points: `bye_points` each if the league fixes it, else the
average points of that member's counted games in this league (0 before any). Members are
ranked by, in order: points; games won (place 1, ties included); Buchholz (the sum, over
every counted game, of each opponent's points); the conservative rating (mu - 3 sigma).
Members equal on all four share a rank.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from leagues import standings
from leagues.record import League


def bye_points(league: League, player: str) -> Fraction:
    """Return what one bye is worth to `player` now (exactly)."""
    fixed = league.settings.get("bye_points")
    if fixed is not None:
        return Fraction(fixed)
    played = league.game_points.get(player, [])
    return sum(played, Fraction(0)) / len(played) if played else Fraction(0)


def rows(league: League) -> list[dict[str, Any]]:
    """Return every member's row, best first, with `rank`. Points and Buchholz are summed
    exactly and ranked on the exact sums; the rows show them rounded to 4 places."""
    out, exact = [], {}
    for p, name in league.members.items():
        mu, sigma = league.rating(p)
        byes = league.byes(p)
        from_byes = byes * bye_points(league, p)
        exact[p] = league.points.get(p, 0) + from_byes
        out.append(
            {
                "player": p,
                "name": name,
                "points": _clean(exact[p]),
                "games": league.games.get(p, 0),
                "wins": league.wins.get(p, 0),
                "byes": byes,
                "bye_points": _clean(from_byes),
                "mu": mu,
                "sigma": sigma,
                "ordinal": standings.ordinal((mu, sigma)),
                "withdrawn": p in league.withdrawn,
            }
        )
    buchholz = {}
    for r in out:
        met = league.opponents.get(r["player"], [])
        buchholz[r["player"]] = sum((exact.get(o, Fraction(0)) for o in met), Fraction(0))
        r["buchholz"] = _clean(buchholz[r["player"]])

    def key(row: dict[str, Any]) -> tuple[Any, ...]:
        p = row["player"]
        return (-exact[p], -row["wins"], -buchholz[p], -row["ordinal"])

    out.sort(key=lambda r: (*key(r), r["name"], r["player"]))
    for i, row in enumerate(out):
        same = i and key(row) == key(out[i - 1])
        row["rank"] = out[i - 1]["rank"] if same else i + 1
    return out


def _clean(value: Fraction | float) -> float | int:
    """Return `value` rounded to 4 places, as an int when whole (3, not 3.0)."""
    value = round(float(value), 4)
    return int(value) if value.is_integer() else value


def place(league: League, player: str) -> int | None:
    """Return a member's rank now."""
    return next((r["rank"] for r in rows(league) if r["player"] == player), None)

"""A league's standings table, from its fold. Pure: no I/O, no clock.

Each member's points are the league points of their counted games (aborted games count
for nobody) plus their byes' points: `bye_points` each if the league fixes it, else the
average points of that member's counted games in this league (0 before any). Members are
ranked by, in order: points; games won (place 1, ties included); Buchholz (the sum, over
every counted game, of each opponent's points); the conservative rating (mu - 3 sigma).
Members equal on all four share a rank.
"""

from __future__ import annotations

from typing import Any

from leagues import standings
from leagues.record import League


def bye_points(league: League, player: str) -> float:
    """Return what one bye is worth to `player` now."""
    fixed = league.settings.get("bye_points")
    if fixed is not None:
        return float(fixed)
    played = league.game_points.get(player, [])
    return sum(played) / len(played) if played else 0.0


def rows(league: League) -> list[dict[str, Any]]:
    """Return every member's row, best first, with `rank`."""
    out = []
    for p, name in league.members.items():
        mu, sigma = league.rating(p)
        byes = league.byes(p)
        from_byes = round(byes * bye_points(league, p), 4)
        out.append(
            {
                "player": p,
                "name": name,
                "points": _clean(league.points.get(p, 0) + from_byes),
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
    totals = {r["player"]: r["points"] for r in out}
    for r in out:
        met = league.opponents.get(r["player"], [])
        r["buchholz"] = _clean(sum(totals.get(o, 0) for o in met))
    out.sort(key=lambda r: (*_key(r), r["name"], r["player"]))
    for i, row in enumerate(out):
        same = i and _key(row) == _key(out[i - 1])
        row["rank"] = out[i - 1]["rank"] if same else i + 1
    return out


def _clean(value: float) -> float | int:
    """Return `value` rounded to 4 places, as an int when whole (3, not 3.0)."""
    value = round(value, 4)
    return int(value) if float(value).is_integer() else value


def _key(row: dict[str, Any]) -> tuple[float, ...]:
    return (-row["points"], -row["wins"], -row["buchholz"], -row["ordinal"])


def place(league: League, player: str) -> int | None:
    """Return a member's rank now."""
    return next((r["rank"] for r in rows(league) if r["player"] == player), None)

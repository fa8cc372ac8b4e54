"""Disputes and the organizer's rulings on a league's games, applied to its standings.
Pure: no I/O, no clock.

A ruling (`league.DisputeRuled`) is about one recorded game; the newest ruling on a game
is the one that counts (an organizer may revise one). What each kind does to the game's
part in the standings:
- `stands`: nothing; the recorded result counts as it is.
- `adjusted`: the listed players' league points for that game are replaced by the given
  ones (places, wins and ratings stay as recorded).
- `annulled`: the game counts for nobody, as an aborted game: no points, no game played,
  no opponents met, no rating change.
- `forfeit`: the listed players forfeit, as a seat that never moved does
  (leagues.forfeits): they score the league's `forfeit_points` (0 if the league keeps
  places as they ended), and the others are placed among themselves, keeping their order
  and ties, and score those places' points; a forfeiting seat's rating stays as it was,
  the others are rated among themselves.
- `replay`: the game is annulled and its table plays again: a new game of the league
  (`replay`: its id), recorded like any other, counts in its place.

`recount(league)` sums the league again from its recorded games in the order they were
recorded, with the rulings in force. Ratings are rated again from the first game a ruling
changes on (each later game from the ratings before it, as recorded games are); before
that the recorded ratings are used, so a league without rulings counts exactly as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from leagues import forfeits, settings, standings

if TYPE_CHECKING:
    from leagues.record import League

KINDS = ("stands", "adjusted", "annulled", "forfeit", "replay")
VOIDS = ("annulled", "replay")  # the game counts for nobody
RERATES = ("annulled", "forfeit", "replay")  # ratings from this game on are rated again


def scored(
    league: League, recorded: dict[str, Any], ruling: dict[str, Any] | None
) -> forfeits.Scored | None:
    """Return a recorded game's exact league points and league places with `ruling` in
    force (leagues.forfeits: a forfeiting seat has no place), or None when the game counts
    for nobody (aborted, annulled, replayed). The seats the record marks `forfeit` forfeit
    as recorded; a `forfeit` ruling adds its players, who score the league's
    `forfeit_points` (0 if the league keeps the places as they ended)."""
    if recorded.get("reason") == "aborted" or (ruling and ruling["kind"] in VOIDS):
        return None
    places = {p["player"]: p["place"] for p in recorded["places"]}
    out = {p["player"] for p in recorded["places"] if p.get("forfeit")}
    per_forfeit = settings.get(league, "forfeit_points")
    if ruling and ruling["kind"] == "forfeit":
        out |= set(ruling["players"])
        per_forfeit = per_forfeit or 0
    scale = league.settings.get("points") or standings.DEFAULT_POINTS
    result = forfeits.score(places, out, scale, per_forfeit)
    if ruling and ruling["kind"] == "adjusted":
        result.points.update({p: Fraction(str(v)) for p, v in ruling["points"].items()})
    return result


def game_points(
    league: League, recorded: dict[str, Any], ruling: dict[str, Any] | None
) -> dict[str, Fraction] | None:
    """Return each player's exact league points for a recorded game with `ruling` in
    force, or None when the game counts for nobody."""
    result = scored(league, recorded, ruling)
    return None if result is None else result.points


def rated(league: League, places: dict[str, int | None]) -> dict[str, standings.Rating]:
    """Return the ratings after a game, as a result is recorded: a forfeiting seat (no
    place) keeps its rating, the others are rated among themselves."""
    out = {p: league.rating(p) for p in places}
    played = {p: place for p, place in places.items() if place is not None}
    if len(played) > 1:
        out.update(standings.rate({p: league.rating(p) for p in played}, played))
    return out


def recount(league: League) -> None:
    """Sum the league's points, games, wins, opponents and ratings again from its recorded
    games in record order, with the rulings in force (in place)."""
    league.points, league.games, league.wins = {}, {}, {}
    league.ratings, league.opponents, league.game_points = {}, {}, {}
    rerate = False
    for gid, recorded in league.results.items():
        ruling = league.rulings.get(gid)
        rerate = rerate or bool(ruling and ruling["kind"] in RERATES)
        result = scored(league, recorded, ruling)
        if result is None:
            continue
        if rerate:
            ratings = rated(league, result.places)
        else:
            ratings = {p["player"]: (p["mu"], p["sigma"]) for p in recorded["places"]}
        count(league, result.places, result.points, ratings)


def count(
    league: League,
    places: Mapping[str, int | None],
    exact: dict[str, Fraction],
    ratings: dict[str, standings.Rating],
) -> None:
    """Add one counted game to the league's sums."""
    for player, place in places.items():
        league.points[player] = league.points.get(player, 0) + exact[player]
        league.games[player] = league.games.get(player, 0) + 1
        league.ratings[player] = ratings[player]
        league.wins[player] = league.wins.get(player, 0) + (place == 1)
        league.opponents.setdefault(player, []).extend(o for o in places if o != player)
        league.game_points.setdefault(player, []).append(exact[player])


def disputes(league: League) -> list[dict[str, Any]]:
    """Return the league's disputes, oldest first, each with its status (`open` until a
    ruling answers it, then `ruled`) and the ruling that answered it last."""
    out = []
    for number, opened in sorted(league.disputes.items()):
        ruled = [r for r in league.ruling_log if r.get("dispute") == number]
        status, last = ("ruled", ruled[-1]) if ruled else ("open", None)
        out.append({**opened, "status": status, "ruling": last})
    return out

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
- `forfeit`: the listed players forfeit: they are placed last and score the league's
  forfeit (`forfeit_points`, default 0); the others keep their order, move up into the
  places left, and score those places' points; ratings follow the new places.
- `replay`: the game is annulled and its table plays again: a new game of the league
  (`replay`: its id), recorded like any other, counts in its place.

`recount(league)` sums the league again from its recorded games in the order they were
recorded, with the rulings in force. Ratings are rated again from the first game a ruling
changes on (each later game from the ratings before it, as recorded games are); before
that the recorded ratings are used, so a league without rulings counts exactly as before.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from leagues import standings

if TYPE_CHECKING:
    from leagues.record import League

KINDS = ("stands", "adjusted", "annulled", "forfeit", "replay")
VOIDS = ("annulled", "replay")  # the game counts for nobody
RERATES = ("annulled", "forfeit", "replay")  # ratings from this game on are rated again


def forfeit_points(league: League) -> Fraction:
    """Return what a forfeit scores in this league (`forfeit_points`, default 0)."""
    return Fraction(str(league.settings.get("forfeit_points") or 0))


def places_after(recorded: dict[str, Any], ruling: dict[str, Any] | None) -> dict[str, int]:
    """Return each player's place in a recorded game once `ruling` applies (forfeiting
    players last, tied among themselves; the others moved up, ties kept)."""
    places = {p["player"]: p["place"] for p in recorded["places"]}
    if not ruling or ruling["kind"] != "forfeit":
        return places
    out = set(ruling["players"])
    kept = sorted((place, p) for p, place in places.items() if p not in out)
    moved: dict[str, int] = {}
    for i, (place, p) in enumerate(kept):  # a tie keeps its first place among the kept
        earlier = kept[i - 1] if i else None
        moved[p] = moved[earlier[1]] if earlier and earlier[0] == place else i + 1
    last = len(kept) + 1
    return {**moved, **{p: last for p in out}}


def game_points(
    league: League, recorded: dict[str, Any], ruling: dict[str, Any] | None
) -> dict[str, Fraction] | None:
    """Return each player's exact league points for a recorded game with `ruling` in
    force, or None when the game counts for nobody (aborted, annulled, replayed)."""
    if recorded.get("reason") == "aborted" or (ruling and ruling["kind"] in VOIDS):
        return None
    scale = league.settings.get("points") or standings.DEFAULT_POINTS
    if ruling and ruling["kind"] == "forfeit":
        places = places_after(recorded, ruling)
        out = set(ruling["players"])
        kept = standings.shares({p: v for p, v in places.items() if p not in out}, scale)
        return {**kept, **{p: forfeit_points(league) for p in out}}
    exact = standings.shares({p["player"]: p["place"] for p in recorded["places"]}, scale)
    if ruling and ruling["kind"] == "adjusted":
        exact.update({p: Fraction(str(v)) for p, v in ruling["points"].items()})
    return exact


def recount(league: League) -> None:
    """Sum the league's points, games, wins, opponents and ratings again from its recorded
    games in record order, with the rulings in force (in place)."""
    league.points, league.games, league.wins = {}, {}, {}
    league.ratings, league.opponents, league.game_points = {}, {}, {}
    rerate = False
    for gid, recorded in league.results.items():
        ruling = league.rulings.get(gid)
        rerate = rerate or bool(ruling and ruling["kind"] in RERATES)
        exact = game_points(league, recorded, ruling)
        if exact is None:
            continue
        places = places_after(recorded, ruling)
        if rerate:
            ratings = standings.rate({p: league.rating(p) for p in places}, places)
        else:
            ratings = {p["player"]: (p["mu"], p["sigma"]) for p in recorded["places"]}
        count(league, places, exact, ratings)


def count(
    league: League,
    places: dict[str, int],
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

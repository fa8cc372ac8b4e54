"""What a finished league game adds to its league, as a pure function of the folded
league and the game's record (no I/O, no clock): places, league points (forfeits scored
by leagues.forfeits) and new ratings, with what fixes the game itself."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.base import Event
from leagues import forfeits, settings, standings
from leagues.record import League

if TYPE_CHECKING:
    from events.record import Record


def record_result(
    league: League, rec: Record, commitment: str | None = None, acted: set[int] | None = None
) -> list[Event]:
    """Log a finished game's places, league points and new ratings, once (an aborted
    game's with no points and unchanged ratings), with what fixes the game itself: its
    seed commitment and its log's length and final hash (a game later rewritten no longer
    matches its league's log). The seats that forfeit (never `acted`, or resigned when
    their player was removed or withdrawn for absence) are marked `forfeit` and scored by
    leagues.forfeits; the others are rated among themselves."""
    gid = rec.game_id
    if gid in league.results:
        return []
    seats = {s.seat: s.player for s in rec.seats}
    by_player = {seats[s["seat"]]: s for s in rec.result["standings"]}
    reason = rec.result.get("reason", "completed")
    places = {p: s["place"] for p, s in by_player.items()}
    forfeited: set[str] = set()
    if reason == "aborted":  # recorded, but neither points nor ratings change
        pts: dict[str, Any] = {p: 0 for p in places}
        ratings = {p: league.rating(p) for p in places}
    else:
        if settings.get(league, "forfeit_points") is not None:
            moved = set(seats) if acted is None else acted
            forfeited = forfeits.forfeiting(seats, moved, rec.resigned, league.why_withdrawn)
        scale, per_forfeit = league.settings["points"], settings.get(league, "forfeit_points")
        scored = forfeits.score(places, forfeited, scale, per_forfeit)
        pts = {p: round(float(v), 4) for p, v in scored.points.items()}
        ratings = {p: league.rating(p) for p in places}  # a forfeit leaves a rating alone
        played = {p: place for p, place in scored.places.items() if place is not None}
        if len(played) > 1:
            ratings.update(standings.rate({p: league.rating(p) for p in played}, played))
    rows = [
        {
            "player": p,
            "seat": by_player[p]["seat"],
            "place": places[p],
            "score": by_player[p]["score"],
            "points": pts[p],
            "forfeit": p in forfeited,
            "mu": ratings[p][0],
            "sigma": ratings[p][1],
        }
        for p in sorted(places, key=lambda p: (places[p], by_player[p]["seat"]))
    ]
    data = {"game": gid, "round": rec.league["round"], "table": rec.league["table"]}
    fixed = {"seed_commitment": commitment, "events": rec.version, "head": rec.last_hash}
    return [Event("league.GameRecorded", {**data, "reason": reason, "places": rows, **fixed})]

"""What each league command decides, as pure functions of the folded league and the time
(`now`, a Unix time, read once by the caller): no I/O, no clock. The commands in
`service.league_commands`, `service.league_lifecycle` and `service.league_rounds` load
the league (and what else a decision needs: a finished game's record, the members'
absences), call these, append what they return, then schedule.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from events import binding
from games.base import Event
from leagues import forfeits, pairing, settings, standings
from leagues.record import League
from service.errors import Conflict, Invalid, NotFound
from service.ports import Status

DAY = 86400

if TYPE_CHECKING:
    from events.record import Record


def iso(ts: float) -> str:
    """Return Unix time `ts` as the log's ISO time (UTC, milliseconds)."""
    when = datetime.fromtimestamp(ts, UTC)
    return when.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _running(league: League) -> None:
    if league.over:
        raise Conflict("league_over", f"the league is {league.status}")


def join(league: League, player: dict[str, str], by: str, now: float) -> list[Event]:
    """A member joins before the first round starts, or before round
    `late_join_until_round` starts if the league allows late joining."""
    _open(league, now)
    if player["id"] in league.members:
        raise Conflict("already_member", "the player is already a member")
    data = {"player": player["id"], "name": player["name"], "by": by}
    return [Event("league.MemberJoined", data)]


def invite(league: League, player: dict[str, str], by: str, now: float) -> list[Event]:
    """The organizer invites a player, who joins (`join`) or declines (`decline`), while
    joining is open."""
    _open(league, now)
    if player["id"] in league.members:
        raise Conflict("already_member", "the player is already a member")
    if player["id"] in league.invited:
        raise Conflict("already_invited", "the player is invited already")
    return [Event("league.Invited", {"player": player["id"], "name": player["name"], "by": by})]


def decline(league: League, player: str) -> list[Event]:
    """An invited player says no; the organizer may invite them again."""
    if player not in league.invited:
        raise Conflict("not_invited", "the caller has no invitation to this league")
    return [Event("league.InvitationDeclined", {"player": player})]


def _open(league: League, now: float) -> None:
    """Refuse a join or an invitation once joining has closed."""
    if league.over:
        raise Conflict("league_over", f"the league is {league.status}")
    late = league.settings.get("late_join_until_round", 0)
    started = len(league.rounds) if league.rounds else int(now >= league.due(1))
    if started and started >= late:
        detail = "members join before the first round starts"
        if late:
            detail = f"late joining closed when round {late} started"
        raise Conflict("league_started", detail)


def cancel(league: League, by: str) -> list[Event]:
    """No more rounds (the caller then aborts the unfinished games)."""
    _running(league)
    return [Event("league.Cancelled", {"by": by})]


def pause(league: League, by: str) -> list[Event]:
    """No new round starts; running games go on."""
    _running(league)
    if league.paused:
        raise Conflict("league_paused", "the league is paused already")
    return [Event("league.Paused", {"by": by})]


def resume(league: League, by: str, now: float) -> list[Event]:
    """The remaining rounds are rescheduled from `now` (a next round whose time has not
    come yet keeps its time)."""
    _running(league)
    if not league.paused:
        raise Conflict("league_not_paused", "the league is not paused")
    following = len(league.rounds) + 1
    start = iso(now)
    if following <= league.settings["rounds"] and league.due(following) > now:
        start = iso(league.due(following))  # not due yet: its time stands
    return [Event("league.Resumed", {"by": by, "round": following, "from": start})]


def _member(league: League, player: str) -> None:
    if player not in league.members:
        raise NotFound("member_not_found", f"{player!r} is not a member of this league")


def withdraw(league: League, player: str, by: str, who: str | None = None) -> list[Event]:
    """A member is paired no more: `by` "self" (they left) or "organizer" (removed by
    `who`, an organizer or operator)."""
    _running(league)
    _member(league, player)
    if player in league.withdrawn:
        raise Conflict("already_withdrawn", "the member has withdrawn already")
    reason = "left" if by == "self" else "removed"
    data = {"player": player, "round": len(league.rounds) + 1, "by": by, "reason": reason}
    return [Event("league.MemberWithdrawn", {**data, **({"who": who} if who else {})})]


def withdraw_absent(
    league: League, player: str, why: str, number: int | None = None
) -> list[Event]:
    """A member absent by the league's rule (`why`, in words) is paired no more from
    round `number` (default: the next round to start)."""
    if league.over or player in league.withdrawn or player not in league.members:
        return []
    first = number if number is not None else len(league.rounds) + 1
    data = {"player": player, "round": first, "by": "timeouts", "reason": "absence", "why": why}
    return [Event("league.MemberWithdrawn", data)]


def reinstate(league: League, player: str, by: str) -> list[Event]:
    """A withdrawn member is paired again from the next round (their games resigned
    meanwhile stay resigned)."""
    _running(league)
    _member(league, player)
    if player not in league.withdrawn:
        raise Conflict("not_withdrawn", "the member has not withdrawn")
    data = {"player": player, "round": len(league.rounds) + 1, "by": by}
    return [Event("league.MemberReinstated", data)]


def substitute(
    league: League, player: str, sub: dict[str, str], by: str, games: list[str]
) -> list[Event]:
    """`sub` takes `player`'s place: paired instead of them from the next round, and at
    `games` (their running games of the league) from now on."""
    _running(league)
    _member(league, player)
    if sub["id"] == player or (sub["id"] in league.members and sub["id"] not in league.withdrawn):
        raise Conflict("already_member", "the substitute plays in this league already")
    data = {
        "player": player,
        "substitute": sub["id"],
        "name": sub["name"],
        "round": len(league.rounds) + 1,
        "by": by,
        "games": games,
    }
    return [Event("league.MemberSubstituted", data)]


def table(league: League, number: int, table_no: int) -> str:
    """Return the game of table `table_no` of started round `number`, or raise NotFound."""
    if number not in league.rounds:
        raise NotFound("round_not_found", f"round {number} has not started")
    tables = league.rounds[number].tables
    if not 1 <= table_no <= len(tables):
        raise NotFound("table_not_found", f"round {number} has tables 1-{len(tables)}")
    return tables[table_no - 1].game


def pause_table(league: League, number: int, table_no: int, by: str) -> list[Event]:
    """One table's clock stops (the caller then pauses its game)."""
    _running(league)
    game = table(league, number, table_no)
    if game in league.paused_tables:
        raise Conflict("table_paused", "the table is paused already")
    data = {"round": number, "table": table_no, "game": game, "by": by}
    return [Event("league.TablePaused", data)]


def resume_table(league: League, number: int, table_no: int, by: str) -> list[Event]:
    """One table's clock runs again (the caller then resumes its game)."""
    _running(league)
    game = table(league, number, table_no)
    if game not in league.paused_tables:
        raise Conflict("table_not_paused", "the table is not paused")
    data = {"round": number, "table": table_no, "game": game, "by": by}
    return [Event("league.TableResumed", data)]


def round_due(league: League, number: int, now: float) -> Status | None:
    """Return why round `number` does not start at `now` (NOOP: no such round or the
    league is cancelled; PAUSED; EARLY: not due yet), or None if it starts (or, started
    already, has its tables opened again)."""
    if not 1 <= number <= league.settings["rounds"] or league.cancelled:
        return Status.NOOP
    if league.paused and number not in league.rounds:
        return Status.PAUSED  # league.Resumed schedules it again
    if now < league.due(number):
        return Status.EARLY
    return None


def start_round(league: League, number: int, absent: dict[str, str]) -> list[Event]:
    """Log round `number`'s tables (and the members it withdraws for absence, `absent`:
    member -> why), unless it started already or the league is paused or cancelled."""
    if number in league.rounds or league.paused or league.cancelled:
        return []
    out = []
    for player, why in absent.items():
        if player not in league.withdrawn:
            out += withdraw_absent(league, player, why, number)
    gone = {e.data["player"] for e in out}
    active = [m for m in league.active() if m not in gone]
    s = league.settings
    history = pairing.History.of(league.played())
    paired = pairing.pair_round(active, history, s["seed"], number, s["table_min"], s["table_max"])
    tables = [
        {"table": i, "game": table_game(league.league_id, number, i), "players": list(t)}
        for i, t in enumerate(paired.tables, start=1)
    ]
    started = {
        "round": number,
        "due": iso(league.due(number)),
        "tables": tables,
        "byes": list(paired.byes),
    }
    return [*out, Event("league.RoundStarted", started)]


# the id of the game at `table` of round `number`: fixed, so that creating it twice is
# impossible, and checked by the audit against the league table game.Created logs
table_game = binding.league_game_id


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


def add_organizer(league: League, player: dict[str, str], by: str) -> list[Event]:
    """A co-organizer joins the league's organizers (any registered player)."""
    _running(league)
    if player["id"] in league.organizers:
        raise Conflict("already_organizer", "the player organizes this league already")
    data = {"player": player["id"], "name": player["name"], "by": by}
    return [Event("league.OrganizerAdded", data)]


def remove_organizer(league: League, player: str, by: str) -> list[Event]:
    """An organizer leaves the league's organizers; the last one stays."""
    _running(league)
    if player not in league.organizers:
        raise NotFound("organizer_not_found", f"{player!r} does not organize this league")
    if league.organizers == [player]:
        raise Conflict("last_organizer", "a league keeps at least one organizer")
    return [Event("league.OrganizerRemoved", {"player": player, "by": by})]


def change_settings(league: League, changes: dict[str, Any], by: str, now: float) -> list[Event]:
    """Change settings not in effect yet (leagues.settings.in_effect), all or none: 409
    `setting_in_effect` names the first that is. A new cadence reschedules the rounds not
    started: the next one a new cadence after the last round started (now, if that time
    has passed)."""
    _running(league)
    for key, value in changes.items():
        field = "table_size" if key in ("table_min", "table_max") else key
        if why := settings.in_effect(league, field, value, now):
            raise Conflict("setting_in_effect", why, errors={field: [why]})
    data: dict[str, Any] = {"changes": changes, "by": by}
    following = len(league.rounds) + 1
    if "cadence_s" in changes and league.rounds and following <= league.settings["rounds"]:
        last = league.due(len(league.rounds)) + changes["cadence_s"]
        data.update({"round": following, "from": iso(max(last, now))})
    return [Event("league.SettingsChanged", data)]


def declare_vacation(
    league: League, player: str, start: float, end: float, now: float
) -> list[Event]:
    """A member declares days away, within the league's `vacation_days` (each started day
    counts whole), not in the past and not overlapping a vacation declared before."""
    _running(league)
    _member(league, player)
    if player in league.withdrawn:
        raise Conflict("already_withdrawn", "the member has withdrawn from the league")
    if end <= start:
        raise Invalid(
            "invalid_body",
            "a vacation ends after it starts",
            errors={"until": ["must be after from"]},
        )
    if start < now - 60:
        raise Invalid(
            "invalid_body",
            "a vacation cannot start in the past",
            errors={"from": ["must not be in the past"]},
        )
    days = math.ceil((end - start) / DAY)
    used = sum(math.ceil((b - a) / DAY) for a, b in league.away(player))
    allowed = settings.get(league, "vacation_days")
    if used + days > allowed:
        left = max(0, allowed - used)
        why = f"this league allows {allowed} days away; {left} left, this vacation takes {days}"
        raise Conflict("vacation_limit", why, errors={"until": [why]})
    if any(a < end and start < b for a, b in league.away(player)):
        raise Conflict("vacation_overlaps", "this vacation overlaps one declared before")
    data = {"player": player, "from": iso(start), "until": iso(end), "days": days}
    return [Event("league.VacationDeclared", data)]

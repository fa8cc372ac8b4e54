"""What each league command decides, as pure functions of the folded league and the time
(`now`, a Unix time, read once by the caller): no I/O, no clock. The commands in
`service.league_commands`, `service.league_lifecycle` and `service.league_rounds` load
the league (and what else a decision needs: the members' absences), call these, append
what they return, then schedule. An organizer's remedies are decided in
`service.league_remedy_decisions`, a finished game's result in
`service.league_game_result`.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any

from events import binding
from games.base import Event
from leagues import pairing, settings
from leagues.record import League
from service.errors import Conflict, Invalid, NotFound
from service.ports import Status

DAY = 86400


def iso(ts: float) -> str:
    """Return Unix time `ts` as the log's ISO time (UTC, milliseconds)."""
    when = datetime.fromtimestamp(ts, UTC)
    return when.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def require_running(league: League) -> None:
    """Refuse a command on a league that is over (409 `league_over`)."""
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
    require_running(league)
    return [Event("league.Cancelled", {"by": by})]


def pause(league: League, by: str) -> list[Event]:
    """No new round starts; running games go on."""
    require_running(league)
    if league.paused:
        raise Conflict("league_paused", "the league is paused already")
    return [Event("league.Paused", {"by": by})]


def resume(league: League, by: str, now: float) -> list[Event]:
    """The remaining rounds are rescheduled from `now` (a next round whose time has not
    come yet keeps its time)."""
    require_running(league)
    if not league.paused:
        raise Conflict("league_not_paused", "the league is not paused")
    following = len(league.rounds) + 1
    start = iso(now)
    if following <= league.settings["rounds"] and league.due(following) > now:
        start = iso(league.due(following))  # not due yet: its time stands
    return [Event("league.Resumed", {"by": by, "round": following, "from": start})]


def require_member(league: League, player: str) -> None:
    """Refuse a command about someone who is not a member (404 `member_not_found`)."""
    if player not in league.members:
        raise NotFound("member_not_found", f"{player!r} is not a member of this league")


def withdraw(league: League, player: str, by: str, who: str | None = None) -> list[Event]:
    """A member is paired no more: `by` "self" (they left) or "organizer" (removed by
    `who`, an organizer or operator)."""
    require_running(league)
    require_member(league, player)
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


def add_organizer(league: League, player: dict[str, str], by: str) -> list[Event]:
    """A co-organizer joins the league's organizers (any registered player)."""
    require_running(league)
    if player["id"] in league.organizers:
        raise Conflict("already_organizer", "the player organizes this league already")
    data = {"player": player["id"], "name": player["name"], "by": by}
    return [Event("league.OrganizerAdded", data)]


def remove_organizer(league: League, player: str, by: str) -> list[Event]:
    """An organizer leaves the league's organizers; the last one stays."""
    require_running(league)
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
    require_running(league)
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
    require_running(league)
    require_member(league, player)
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

"""A league's lifecycle after creation: pause, resume, cancel, and members withdrawing
(removed by the operator, or leaving). Each is one append to the league's log; what
follows in games (aborting, resigning) goes through the ordinary game commands.

- cancel: `league.Cancelled`; every unfinished game of the league is aborted (recorded
  with no points), no round starts any more.
- pause: `league.Paused`; no round starts while paused, running games go on.
- resume: `league.Resumed` {round, from}: the remaining rounds are rescheduled from now,
  the next one at once, the others one cadence apart (a next round whose time has not
  come yet keeps its time).
- withdraw: `league.MemberWithdrawn` {player, round, by}: the member is paired no more,
  and resigns from their unfinished games of this league so nobody waits for them (a
  member withdrawn for timeouts too, when the round that withdraws them starts).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from events import codec
from events.record import FINISHED
from games.base import Event, RuleViolation
from games.rng import Rng
from leagues.record import League
from service import game_commands
from service.errors import Conflict, NotFound
from service.league_commands import load, run

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def _running(league: League) -> None:
    if league.over:
        raise Conflict("league_over", f"the league is {league.status}")


def cancel(boot: Bootstrap, league_id: str, by: str) -> League:
    """Cancel the league: no more rounds; its unfinished games are aborted."""

    def decide(league: League, rng: Rng) -> list[Event]:
        _running(league)
        return [Event("league.Cancelled", {"by": by})]

    load(boot, league_id)
    league = run(boot, league_id, decide, f"cancel:{by}").record
    for gid in _unfinished(boot, league):
        game_commands.abort(boot, gid, by)
    return league


def pause(boot: Bootstrap, league_id: str, by: str) -> League:
    """Stop new rounds from starting; running games go on."""

    def decide(league: League, rng: Rng) -> list[Event]:
        _running(league)
        if league.paused:
            raise Conflict("league_paused", "the league is paused already")
        return [Event("league.Paused", {"by": by})]

    load(boot, league_id)
    return run(boot, league_id, decide, f"pause:{by}").record


def resume(boot: Bootstrap, league_id: str, by: str) -> League:
    """Reschedule the remaining rounds from now at the league's cadence."""

    def decide(league: League, rng: Rng) -> list[Event]:
        _running(league)
        if not league.paused:
            raise Conflict("league_not_paused", "the league is not paused")
        following = len(league.rounds) + 1
        start = codec.now_iso()
        if following <= league.settings["rounds"] and league.due(following) > time.time():
            start = _iso(league.due(following))  # not due yet: its time stands
        data = {"by": by, "round": following, "from": start}
        return [Event("league.Resumed", data)]

    load(boot, league_id)
    league = run(boot, league_id, decide, f"resume:{by}").record
    following = len(league.rounds) + 1
    if following <= league.settings["rounds"]:
        boot.scheduler.league_round(league_id, following, league.due(following))
    return league


def withdraw(boot: Bootstrap, league_id: str, player: str, by: str) -> League:
    """Withdraw a member from later rounds (`by`: "operator" or "self"); they resign from
    their unfinished games of this league."""

    def decide(league: League, rng: Rng) -> list[Event]:
        _running(league)
        if player not in league.members:
            raise NotFound("member_not_found", f"{player!r} is not a member of this league")
        if player in league.withdrawn:
            raise Conflict("already_withdrawn", "the member has withdrawn already")
        data = {"player": player, "round": len(league.rounds) + 1, "by": by}
        return [Event("league.MemberWithdrawn", data)]

    load(boot, league_id)
    league = run(boot, league_id, decide, f"withdraw:{player}").record
    resign_everywhere(boot, league, player)
    return league


def resign_everywhere(boot: Bootstrap, league: League, player: str) -> None:
    """Resign a withdrawn member from each of their unfinished games of the league."""
    for gid in _unfinished(boot, league, player):
        try:
            game_commands.resign(boot, gid, player)
        except (RuleViolation, NotFound):  # ended meanwhile, or not started: nothing to do
            continue


def _unfinished(boot: Bootstrap, league: League, player: str | None = None) -> list[str]:
    """Return the league's games not finished yet (those `player` sits at, if given)."""
    out = []
    for r in league.rounds.values():
        for t in r.tables:
            if player is not None and player not in t.players:
                continue
            rec = boot.store.load(t.game).record
            if rec.version and rec.status != FINISHED:
                out.append(t.game)
    return out


def _iso(ts: float) -> str:
    when = datetime.fromtimestamp(ts, UTC)
    return when.isoformat(timespec="milliseconds").replace("+00:00", "Z")

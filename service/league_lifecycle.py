"""A league's lifecycle after creation: pause, resume, cancel, and members withdrawing
(removed by the operator, or leaving). Each is one append to the league's log; what
follows in games (aborting, resigning) goes through the ordinary game commands.

- cancel: `league.Cancelled`; every unfinished game of the league is aborted (recorded
  with no points), no round starts any more.
- pause: `league.Paused`; no round starts while paused, and every running game's clock
  stops (`game.Paused`) until the league resumes.
- resume: `league.Resumed` {round, from}: the remaining rounds are rescheduled from now,
  the next one at once, the others one cadence apart (a next round whose time has not
  come yet keeps its time).
- withdraw: `league.MemberWithdrawn` {player, round, by}: the member is paired no more,
  and resigns from their unfinished games of this league so nobody waits for them (a
  member withdrawn for timeouts too, when the round that withdraws them starts).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from games.base import RuleViolation
from leagues.record import League
from service import game_commands, league_remedies
from service import league_decisions as decisions
from service.errors import NotFound
from service.league_commands import load, run

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def cancel(boot: Bootstrap, league_id: str, by: str) -> League:
    """Cancel the league: no more rounds; its unfinished games are aborted."""
    load(boot, league_id)
    league = run(boot, league_id, lambda lg, rng: decisions.cancel(lg, by), f"cancel:{by}").record
    for gid in league_remedies.running_games(boot, league):
        game_commands.abort(boot, gid, by)
    return league


def pause(boot: Bootstrap, league_id: str, by: str) -> League:
    """Stop new rounds from starting; running games go on."""
    load(boot, league_id)
    league = run(boot, league_id, lambda lg, rng: decisions.pause(lg, by), f"pause:{by}").record
    league_remedies.pause_games(boot, league, by)
    return league


def resume(boot: Bootstrap, league_id: str, by: str) -> League:
    """Reschedule the remaining rounds from now at the league's cadence."""
    load(boot, league_id)
    now = time.time()
    decide = lambda lg, rng: decisions.resume(lg, by, now)  # noqa: E731
    league = run(boot, league_id, decide, f"resume:{by}").record
    league_remedies.resume_games(boot, league, by)
    following = len(league.rounds) + 1
    if following <= league.settings["rounds"]:
        boot.scheduler.league_round(league_id, following, league.due(following))
    return league


def withdraw(
    boot: Bootstrap, league_id: str, player: str, by: str, who: str | None = None
) -> League:
    """Withdraw a member from later rounds (`by`: "self", or "organizer" `who` removed
    them); they resign from their unfinished games of this league."""
    load(boot, league_id)
    decide = lambda lg, rng: decisions.withdraw(lg, player, by, who)  # noqa: E731
    league = run(boot, league_id, decide, f"withdraw:{player}").record
    resign_everywhere(boot, league, player)
    return league


def resign_everywhere(boot: Bootstrap, league: League, player: str) -> None:
    """Resign a withdrawn member from each of their unfinished games of the league."""
    for gid in league_remedies.running_games(boot, league, player):
        try:
            game_commands.resign(boot, gid, player)
        except (RuleViolation, NotFound):  # ended meanwhile, or not started: nothing to do
            continue

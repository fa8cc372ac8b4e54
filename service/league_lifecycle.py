"""A league's lifecycle after creation: pause, resume, cancel, and members withdrawing
(removed by the operator, or leaving). Each is one append to the league's log; what
follows in games (aborting, resigning, clocks) is its follow-up (service.league_followups),
through the ordinary game commands, finished by a worker if the request dies first.

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

from leagues.record import League
from service import league_decisions as decisions
from service.league_commands import NO_RETRY, Retry, load, run
from service.league_followups import finish

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def cancel(boot: Bootstrap, league_id: str, by: str, retry: Retry = NO_RETRY) -> League:
    """Cancel the league: no more rounds; its unfinished games are aborted."""
    load(boot, league_id)
    decide = lambda lg, rng: decisions.cancel(lg, by)  # noqa: E731
    return finish(boot, league_id, run(boot, league_id, decide, f"cancel:{by}", *retry))


def pause(boot: Bootstrap, league_id: str, by: str, retry: Retry = NO_RETRY) -> League:
    """Stop new rounds from starting and the clocks of running games."""
    load(boot, league_id)
    decide = lambda lg, rng: decisions.pause(lg, by)  # noqa: E731
    return finish(boot, league_id, run(boot, league_id, decide, f"pause:{by}", *retry))


def resume(boot: Bootstrap, league_id: str, by: str, retry: Retry = NO_RETRY) -> League:
    """Reschedule the remaining rounds from now at the league's cadence (the follow-up
    schedules the next one) and start the clocks of running games again."""
    load(boot, league_id)
    now = time.time()
    decide = lambda lg, rng: decisions.resume(lg, by, now)  # noqa: E731
    return finish(boot, league_id, run(boot, league_id, decide, f"resume:{by}", *retry))


def withdraw(
    boot: Bootstrap,
    league_id: str,
    player: str,
    by: str,
    who: str | None = None,
    retry: Retry = NO_RETRY,
) -> League:
    """Withdraw a member from later rounds (`by`: "self", or "organizer" `who` removed
    them); they resign from their unfinished games of this league."""
    load(boot, league_id)
    decide = lambda lg, rng: decisions.withdraw(lg, player, by, who)  # noqa: E731
    return finish(boot, league_id, run(boot, league_id, decide, f"withdraw:{player}", *retry))

"""Mending a league after its start, each an event in the league's log naming who did
it (an organizer or operator), followed by what it changes in games:

- substitute: `league.MemberSubstituted` {player, substitute, round, by, games}: the
  substitute is paired instead of the member from the next round, and takes over the
  member's seat at each running game of the league (`game.SeatTaken` in its log: the
  moves before are the member's, those after the substitute's);
- reinstate: `league.MemberReinstated` {player, round, by}: a withdrawn member is paired
  again from the next round;
- pause or resume one table: `league.TablePaused` / `league.TableResumed`, and the game's
  `game.Paused` / `game.Resumed` (its clock stops; on resuming, each owed decision gets
  back the time it had left).
Removing a member is `service.league_lifecycle.withdraw` (by "organizer"). What an event
changes in games is its follow-up (service.league_followups), finished by a worker if
the request dies after the league's append. Each takes `retry`, an Idempotency-Key and
the request it came with: a repeat answers the first call's league and writes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from leagues.record import League
from service import league_remedy_decisions as decisions
from service.league_commands import NO_RETRY, Retry, load, run
from service.league_followups import finish, running_games

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def substitute(
    boot: Bootstrap,
    league_id: str,
    player: str,
    sub: dict[str, str],
    by: str,
    retry: Retry = NO_RETRY,
) -> League:
    """Put `sub` ({id, name}) in `player`'s place, in future rounds and running games."""
    load(boot, league_id)

    def decide(lg: League, rng) -> list:
        decisions.substitute(lg, player, sub, by, [])  # refuse before reading the games
        return decisions.substitute(lg, player, sub, by, running_games(boot, lg, player))

    done = run(boot, league_id, decide, f"substitute:{player}:{sub['id']}", *retry)
    return finish(boot, league_id, done)


def reinstate(
    boot: Bootstrap, league_id: str, player: str, by: str, retry: Retry = NO_RETRY
) -> League:
    """Pair a withdrawn member again from the next round."""
    load(boot, league_id)
    decide = lambda lg, rng: decisions.reinstate(lg, player, by)  # noqa: E731
    return run(boot, league_id, decide, f"reinstate:{player}", *retry).record


def pause_table(
    boot: Bootstrap, league_id: str, number: int, table: int, by: str, retry: Retry = NO_RETRY
) -> League:
    """Stop one table's clock (its game takes no move until it resumes)."""
    load(boot, league_id)
    decide = lambda lg, rng: decisions.pause_table(lg, number, table, by)  # noqa: E731
    return finish(
        boot, league_id, run(boot, league_id, decide, f"pause_table:{number}:{table}", *retry)
    )


def resume_table(
    boot: Bootstrap, league_id: str, number: int, table: int, by: str, retry: Retry = NO_RETRY
) -> League:
    """Start one table's clock again (not while the whole league is paused)."""
    load(boot, league_id)
    decide = lambda lg, rng: decisions.resume_table(lg, number, table, by)  # noqa: E731
    return finish(
        boot, league_id, run(boot, league_id, decide, f"resume_table:{number}:{table}", *retry)
    )

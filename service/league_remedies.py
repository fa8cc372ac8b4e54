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
Removing a member is `service.league_lifecycle.withdraw` (by "organizer").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from events.record import FINISHED
from games.base import RuleViolation
from leagues.record import League
from service import game_commands
from service import league_decisions as decisions
from service.league_commands import load, run

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def substitute(
    boot: Bootstrap, league_id: str, player: str, sub: dict[str, str], by: str
) -> League:
    """Put `sub` ({id, name}) in `player`'s place, in future rounds and running games."""
    league = load(boot, league_id)
    decisions.substitute(league, player, sub, by, [])  # refuse before reading the games
    games = running_games(boot, league, player)
    decide = lambda lg, rng: decisions.substitute(lg, player, sub, by, games)  # noqa: E731
    league = run(boot, league_id, decide, f"substitute:{player}:{sub['id']}").record
    for gid in games:
        rec = boot.store.load(gid).record
        seat = rec.seat_of(player)
        if seat is None:
            continue
        try:
            game_commands.take_seat(boot, gid, seat, sub, by)
        except RuleViolation:  # the game ended meanwhile: nothing to take over
            continue
    return league


def reinstate(boot: Bootstrap, league_id: str, player: str, by: str) -> League:
    """Pair a withdrawn member again from the next round."""
    load(boot, league_id)
    decide = lambda lg, rng: decisions.reinstate(lg, player, by)  # noqa: E731
    return run(boot, league_id, decide, f"reinstate:{player}").record


def pause_table(boot: Bootstrap, league_id: str, number: int, table: int, by: str) -> League:
    """Stop one table's clock (its game takes no move until it resumes)."""
    load(boot, league_id)
    decide = lambda lg, rng: decisions.pause_table(lg, number, table, by)  # noqa: E731
    league = run(boot, league_id, decide, f"pause_table:{number}:{table}").record
    gid = decisions.table(league, number, table)
    try:
        game_commands.pause(boot, gid, by)
    except RuleViolation:  # over, or paused with the whole league: the clock is stopped
        pass
    return league


def resume_table(boot: Bootstrap, league_id: str, number: int, table: int, by: str) -> League:
    """Start one table's clock again."""
    load(boot, league_id)
    decide = lambda lg, rng: decisions.resume_table(lg, number, table, by)  # noqa: E731
    league = run(boot, league_id, decide, f"resume_table:{number}:{table}").record
    if not league.paused:  # a paused league keeps every clock stopped
        try:
            game_commands.resume(boot, decisions.table(league, number, table), by)
        except RuleViolation:
            pass
    return league


def pause_games(boot: Bootstrap, league: League, by: str) -> None:
    """Stop the clock of every running game of the league (the league is paused)."""
    for gid in running_games(boot, league):
        try:
            game_commands.pause(boot, gid, by)
        except RuleViolation:  # ended, or its table paused already
            continue


def resume_games(boot: Bootstrap, league: League, by: str) -> None:
    """Start again the clock of every running game, but of tables paused on their own."""
    for gid in running_games(boot, league):
        if gid in league.paused_tables:
            continue
        try:
            game_commands.resume(boot, gid, by)
        except RuleViolation:
            continue


def running_games(boot: Bootstrap, league: League, player: str | None = None) -> list[str]:
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

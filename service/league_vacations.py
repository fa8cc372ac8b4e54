"""Vacations (Board Game Arena's vacation mode): a member declares days away within the
limit their league sets (`vacation_days`); `league.VacationDeclared` {player, from, until,
days} goes in the league's log, and each of their league games, running or opened
before the vacation ends, gets `game.SeatAway` {seat, from, until}: a deadline of theirs
falling in those days moves on by the vacation's length, visibly to the table (the
game's log and its `owed[].deadline`). Days away do not count as absence."""

from __future__ import annotations

import time
from datetime import datetime
from typing import TYPE_CHECKING

from events.codec import parse_time
from games.base import RuleViolation
from leagues.record import League
from service import game_commands, league_remedies
from service import league_decisions as decisions
from service.league_commands import load, run

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def declare(boot: Bootstrap, league_id: str, player: str, start: datetime, end: datetime) -> League:
    """Declare `player` away from `start` to `end` in the league and its games."""
    load(boot, league_id)
    now, a, b = time.time(), start.timestamp(), end.timestamp()
    decide = lambda lg, rng: decisions.declare_vacation(lg, player, a, b, now)  # noqa: E731
    league = run(boot, league_id, decide, f"vacation:{player}").record
    for gid in league_remedies.running_games(boot, league, player):
        mark_game(boot, league, gid, player)
    return league


def mark_game(boot: Bootstrap, league: League, gid: str, player: str) -> None:
    """Log in game `gid` the player's vacations that have not ended yet."""
    rec = boot.store.load(gid).record
    seat = rec.seat_of(player)
    if seat is None:
        return
    logged = {(s, a) for s, a, _ in rec.away}
    for start, end in league.vacations.get(player, []):
        if (seat, start) in logged or parse_time(end).timestamp() <= time.time():
            continue
        try:
            game_commands.away(boot, gid, seat, (start, end), player)
        except RuleViolation:  # the game is over (or not started): nothing to move
            return

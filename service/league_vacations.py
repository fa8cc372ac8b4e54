"""Vacations (Board Game Arena's vacation mode): a member declares days away within the
limit their league sets (`vacation_days`); `league.VacationDeclared` {player, from, until,
days} goes in the league's log, and each of their league games, running or opened
before the vacation ends, gets `game.SeatAway` {seat, from, until}: a deadline of theirs
falling in those days moves on by the vacation's length, visibly to the table (the
game's log and its `owed[].deadline`: the event's follow-up, service.league_followups).
Days away do not count as absence."""

from __future__ import annotations

import time
from datetime import datetime
from typing import TYPE_CHECKING

from leagues.record import League
from service import league_decisions as decisions
from service.league_commands import load, run
from service.league_followups import finish

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def declare(boot: Bootstrap, league_id: str, player: str, start: datetime, end: datetime) -> League:
    """Declare `player` away from `start` to `end` in the league and its games."""
    load(boot, league_id)
    now, a, b = time.time(), start.timestamp(), end.timestamp()
    decide = lambda lg, rng: decisions.declare_vacation(lg, player, a, b, now)  # noqa: E731
    return finish(boot, league_id, run(boot, league_id, decide, f"vacation:{player}"))

"""Starting a league's rounds (job `round|<league>|<n>` in the deadline index, due at the
round's start): log the round's tables once (idempotency key `round:<n>`), then create
and fill each table's game with the ordinary game commands. Each table's game has a
fixed id derived from (league, round, table), so creating it twice is impossible.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from events.record import FINISHED
from leagues.record import League
from service import game_commands, league_absence, league_followups, league_seeds
from service import league_decisions as decisions
from service.errors import NotFound
from service.league_commands import load, run
from service.ports import Status

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def start_round(boot: Bootstrap, league_id: str, number: int) -> Status:
    """Start round `number` if due: log its tables once, then open and seat its games."""
    try:
        league = load(boot, league_id)
    except NotFound:
        return Status.MISSING
    if (held := decisions.round_due(league, number, time.time())) is not None:
        if held is Status.EARLY:
            boot.scheduler.league_round(league_id, number, league.due(number))
        return held
    if number > 1 and number - 1 not in league.rounds:
        start_round(boot, league_id, number - 1)  # never skip or reorder
    status = Status.STARTED if number not in league.rounds else Status.RESUMED
    if number not in league.rounds:
        key = f"round:{number}"
        absent = league_absence.absences(boot, league, time.time())
        decide = lambda lg, rng: decisions.start_round(lg, number, absent)  # noqa: E731
        league = league_followups.finish(boot, league_id, run(boot, league_id, decide, key, key))
        if number not in league.rounds:  # paused or cancelled meanwhile
            return Status.PAUSED
    for player, first in league.withdrawn.items():
        if first == number:  # withdrawn for absence as this round started
            league_followups.resign_everywhere(boot, league, player)
    for table in league.rounds[number].tables:
        open_table(boot, league, number, table.number)
    if number < league.settings["rounds"] and number + 1 not in league.rounds:
        boot.scheduler.league_round(league_id, number + 1, league.due(number + 1))
    for gid in unrecorded_finished(boot, league):  # a safety net for a lost schedule
        boot.scheduler.league_result(league_id, gid)
    league_followups.open_replays(boot, league)  # and for a replay whose opening was cut short
    return status


def open_table(boot: Bootstrap, league: League, number: int, table: int) -> str:
    """Create the table's game and seat its players in order; each step only once."""
    s = league.settings
    t = league.rounds[number].tables[table - 1]
    where = {"id": league.league_id, "round": number, "table": table, "game": t.game}
    size, timeout = len(t.players), s["decision_timeout_s"]
    game_commands.create_game(
        boot, s["operator"], s["ruleset"], size, s["options"], timeout, league=where
    )
    for player in t.players:
        seat = {"id": player, "name": league.members[player]}
        given = league_seeds.held(boot, league.league_id, player)  # registered ahead
        game_commands.join(boot, t.game, seat, again=True, commitment=given)
    for player in t.players:  # a vacation declared before the game opened
        if league.vacations.get(player):
            league_followups.mark_game(boot, league, t.game, player)
    return t.game


def unrecorded_finished(boot: Bootstrap, league: League) -> list[str]:
    """Return the league's finished games whose result is not in its log yet."""
    out = []
    for r in league.rounds.values():
        for gid in (g for t in r.tables for g in league.chain(t.game)):
            if gid not in league.results and boot.store.exists(gid):
                if boot.store.load(gid).record.status == FINISHED:
                    out.append(gid)
    return out

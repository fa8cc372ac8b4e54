"""What an organizer's remedies decide, as pure functions of the folded league (no I/O,
no clock): a withdrawn member reinstated, a member substituted, one table's clock paused
or resumed. `service.league_remedies` loads the league, calls these, appends what they
return, then acts on the games."""

from __future__ import annotations

from games.base import Event
from leagues.record import League
from service.errors import Conflict, NotFound
from service.league_decisions import require_member, require_running


def reinstate(league: League, player: str, by: str) -> list[Event]:
    """A withdrawn member is paired again from the next round (their games resigned
    meanwhile stay resigned)."""
    require_running(league)
    require_member(league, player)
    if player not in league.withdrawn:
        raise Conflict("not_withdrawn", "the member has not withdrawn")
    data = {"player": player, "round": len(league.rounds) + 1, "by": by}
    return [Event("league.MemberReinstated", data)]


def substitute(
    league: League, player: str, sub: dict[str, str], by: str, games: list[str]
) -> list[Event]:
    """`sub` takes `player`'s place: paired instead of them from the next round, and at
    `games` (their running games of the league) from now on."""
    require_running(league)
    require_member(league, player)
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
    require_running(league)
    game = table(league, number, table_no)
    if game in league.paused_tables:
        raise Conflict("table_paused", "the table is paused already")
    data = {"round": number, "table": table_no, "game": game, "by": by}
    return [Event("league.TablePaused", data)]


def resume_table(league: League, number: int, table_no: int, by: str) -> list[Event]:
    """One table's clock runs again (the caller then resumes its game)."""
    require_running(league)
    game = table(league, number, table_no)
    if game not in league.paused_tables:
        raise Conflict("table_not_paused", "the table is not paused")
    data = {"round": number, "table": table_no, "game": game, "by": by}
    return [Event("league.TableResumed", data)]

"""What can be read about leagues beyond their own fold: the list of leagues, the state
of their games, the log itself."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from events import keys
from events.codec import now_iso
from leagues import pairing, rulings, season, table
from leagues.record import STATUSES, League, fold_all
from leagues.settings import get as setting
from service.errors import Invalid
from service.league_log import load

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

__all__ = [
    "STATUSES",
    "League",
    "disputes",
    "events",
    "export",
    "listing",
    "load",
    "meetings",
    "of_player",
    "schedule",
    "setting",
    "standings",
    "table_statuses",
]
SCAN = 50  # leagues read from the index at once while filtering a page


def table_statuses(
    boot: Bootstrap, league: League, number: int
) -> dict[str, tuple[str, str | None]]:
    """Return the status of each game of a started round ("opening" before it exists,
    "paused" while its clock is stopped), with when its clock stopped (None unless
    paused)."""
    out: dict[str, tuple[str, str | None]] = {}
    for t in league.rounds[number].tables:
        rec = boot.store.load(t.game).record
        out[t.game] = (rec.status if rec.version else "opening", None)
        if rec.status == "active" and rec.paused_at:  # its clock stopped by an organizer
            out[t.game] = ("paused", rec.paused_at)
    return out


def listing(
    boot: Bootstrap, status: str | None, ruleset: str | None, cursor: str | None, limit: int
) -> tuple[list[League], str | None]:
    """Return a page of leagues, newest first, that match the filters, and the cursor of
    the next page (None on the last). A cursor is the id of the last league of a page."""
    start = 0
    if cursor is not None:
        rank = boot.leagues.position(cursor)
        if rank is None:
            errors = {"cursor": ["not a cursor this list gave out"]}
            raise Invalid("invalid_query", "unknown cursor", errors=errors)
        start = rank + 1
    page: list[League] = []
    while len(page) < limit:
        ids = boot.leagues.newest(start, SCAN)
        if not ids:
            return page, None
        for league_id in ids:
            start += 1
            league = load(boot, league_id)
            if status and league.status != status:
                continue
            if ruleset and league.settings["ruleset"] != ruleset:
                continue
            page.append(league)
            if len(page) == limit:
                break
    more = boot.leagues.count() > start
    return page, (page[-1].league_id if more else None)


MINE_READ = 200  # the newest leagues looked through for a player's own


def of_player(boot: Bootstrap, player_id: str) -> list[League]:
    """Return the leagues, newest first (of the newest MINE_READ), that `player_id` is a
    member of (withdrawn or not), is invited to, or organizes."""
    out = []
    for league_id in boot.leagues.newest(0, MINE_READ):
        league = load(boot, league_id)
        if (
            player_id in league.members
            or player_id in league.invited
            or player_id in organizers(league)
        ):
            out.append(league)
    return out


def organizers(league: League) -> list[str]:
    """Return who runs the league: its creator, then its co-organizers."""
    return list(league.organizers) or [league.settings["operator"]]


def events(boot: Bootstrap, league_id: str, after: int = 0) -> tuple[League, list[dict[str, Any]]]:
    """Return the league and its log's envelopes after `after` (a league's log is public)."""
    envelopes = boot.store.read_stream(keys.league_events(league_id))
    if not envelopes:
        load(boot, league_id)  # raises NotFound
    return fold_all(League(league_id), envelopes), envelopes[after:]


def export(boot: Bootstrap, league_id: str) -> tuple[League, list[dict[str, Any]], str]:
    """Return the league, its whole log, and the server's time of the export."""
    league, envelopes = events(boot, league_id)
    return league, envelopes, now_iso()


def standings(league: League) -> list[dict[str, Any]]:
    """Return the league's standings, one row per member, best first (leagues.table)."""
    return table.rows(league)


def schedule(league: League) -> list[tuple[int, Any, bool]]:
    """Return every round as (number, its tables, started?): the rounds played and the
    rest of the season as it would be paired now (leagues.season)."""
    return season.schedule(league)


def meetings(league: League, rounds: list[tuple[int, Any, bool]]) -> tuple[int, int]:
    """Return, over the `rounds` of `schedule(league)`, the most meetings of any pair of
    members and the most minus the fewest (leagues.pairing)."""
    return pairing.meetings([r for _, r, _ in rounds], league.members)


def disputes(league: League) -> list[dict[str, Any]]:
    """Return the league's disputes, oldest first, with their status (leagues.rulings)."""
    return rulings.disputes(league)

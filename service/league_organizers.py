"""Who runs a league: its organizers (the creator, then the co-organizers they add) and
the server's operators. Organizing one league needs no role: the `organizer` role
(service.roles) is what it takes to create a league."""

from __future__ import annotations

from typing import TYPE_CHECKING

from leagues.record import League
from service import league_decisions as decisions
from service import roles
from service.league_commands import load, run

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

LEAGUE_ORGANIZER = "league_organizer"


def may_run(boot: Bootstrap, league: League, player_id: str) -> bool:
    """Return True if the player organizes the league or is an operator."""
    return player_id in league.organizers or roles.has(boot, player_id, roles.OPERATOR)


def require(boot: Bootstrap, league: League, player_id: str, doing: str) -> None:
    """Raise MissingRole (403 `not_league_organizer`) unless the player may run the league."""
    if not may_run(boot, league, player_id):
        how = (
            "ask one of its organizers to add you (POST /v1/leagues/"
            f"{league.league_id}/organizers), or a server operator to act"
        )
        raise roles.MissingRole(LEAGUE_ORGANIZER, doing, how)


def add(boot: Bootstrap, league_id: str, player: dict[str, str], by: str) -> League:
    """Add a co-organizer."""
    load(boot, league_id)
    decide = lambda lg, rng: decisions.add_organizer(lg, player, by)  # noqa: E731
    return run(boot, league_id, decide, f"organizer:{player['id']}").record


def remove(boot: Bootstrap, league_id: str, player_id: str, by: str) -> League:
    """Remove a co-organizer (the last organizer stays)."""
    load(boot, league_id)
    decide = lambda lg, rng: decisions.remove_organizer(lg, player_id, by)  # noqa: E731
    return run(boot, league_id, decide, f"unorganizer:{player_id}").record

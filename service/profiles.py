"""A player's public profile: name, when registered, games finished per ruleset, and the
rating in each league the player is a member of. It reads the leagues
(service.league_queries), which sit above the players (service.players), so it is a module of
its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from service import league_queries
from service.errors import NotFound

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def profile(boot: Bootstrap, player_id: str) -> dict[str, Any]:
    """Return a player's public profile: name, when registered, games finished per
    ruleset, and the rating in every league the player is a member of."""
    record = boot.players.record(player_id)
    if record is None:
        raise NotFound("player_not_found", f"no player {player_id!r}")
    ratings = []
    for league in league_queries.of_player(boot, player_id):  # of the newest MINE_READ
        if player_id in league.members:
            mu, sigma = league.rating(player_id)
            ratings.append(
                {
                    "league": league.league_id,
                    "ruleset": league.settings.get("ruleset"),
                    "mu": round(mu, 4),
                    "sigma": round(sigma, 4),
                    "ordinal": round(mu - 3 * sigma, 4),
                }
            )
    return {
        "id": player_id,
        "name": record["name"],
        "handle": record["handle"],
        "created": record["created"],
        "games_played": dict(sorted(boot.players.played(player_id).items())),
        "leagues": ratings,
    }

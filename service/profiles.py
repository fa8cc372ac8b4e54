"""A player's public profile: name, when registered, games finished per ruleset, and the
rating in each league the player is a member of. It reads the leagues
(service.league_log), which sit above the players (service.players), so it is a module of
its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from events import keys
from service import league_log
from service.errors import NotFound

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

LEAGUES_READ = 200  # the newest leagues a profile looks through for ratings


def profile(boot: Bootstrap, player_id: str) -> dict[str, Any]:
    """Return a player's public profile: name, when registered, games finished per
    ruleset, and the rating in every league the player is a member of."""
    pipe = boot.redis.pipeline(transaction=False)
    pipe.hmget(keys.player(player_id), "name", "created", "handle")
    pipe.hgetall(keys.player_played(player_id))
    pipe.zrevrange(keys.leagues(), 0, LEAGUES_READ - 1)
    (name, created, handle), played, league_ids = pipe.execute()
    if name is None:
        raise NotFound("player_not_found", f"no player {player_id!r}")
    ratings = []
    for raw in league_ids:
        league = league_log.load(boot, raw.decode())
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
        "name": name.decode(),
        "handle": handle.decode() if handle else None,
        "created": created.decode() if created else None,
        "games_played": {k.decode(): int(v) for k, v in sorted(played.items())},
        "leagues": ratings,
    }

"""Players: registration, bearer tokens (stored hashed), and lookups."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from events import codec, keys
from service import tokens
from service.errors import NotFound
from service.tokens import PREFIX as TOKEN_PREFIX
from service.tokens import hash_token

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

__all__ = [
    "TOKEN_PREFIX",
    "authenticate",
    "create_player",
    "hash_token",
    "new_id",
    "player",
    "profile",
]
LEAGUES_READ = 200  # the newest leagues a profile looks through for ratings


def new_id(prefix: str) -> str:
    """Return a fresh id made of [A-Za-z0-9_-] only."""
    return prefix + secrets.token_urlsafe(9)


def create_player(boot: Bootstrap, name: str) -> dict[str, str]:
    """Register a player; the token is returned once and only its hash is kept."""
    player_id = new_id("p_")
    pipe = boot.redis.pipeline(transaction=False)  # two slots in a cluster
    pipe.hset(keys.player(player_id), mapping={"name": name, "created": codec.now_iso()})
    token = tokens.issue(boot, player_id, name, pipe)
    pipe.execute()
    return {"id": player_id, "name": name, "token": token["token"]}


def authenticate(boot: Bootstrap, token: str) -> dict[str, Any] | None:
    """Return {id, name, token_id} of the token's player, or None."""
    return tokens.authenticate(boot, token)


def player(boot: Bootstrap, player_id: str) -> dict[str, str]:
    """Return {id, name} of a registered player, or raise NotFound."""
    name = boot.redis.hget(keys.player(player_id), "name")
    if name is None:
        raise NotFound("player_not_found", f"no player {player_id!r}")
    return {"id": player_id, "name": name.decode()}


def profile(boot: Bootstrap, player_id: str) -> dict[str, Any]:
    """Return a player's public profile: name, when registered, games finished per
    ruleset, and the rating in every league the player is a member of."""
    from service import league_log  # leagues are read only here

    pipe = boot.redis.pipeline(transaction=False)
    pipe.hmget(keys.player(player_id), "name", "created")
    pipe.hgetall(keys.player_played(player_id))
    pipe.zrevrange(keys.leagues(), 0, LEAGUES_READ - 1)
    (name, created), played, league_ids = pipe.execute()
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
        "created": created.decode() if created else None,
        "games_played": {k.decode(): int(v) for k, v in sorted(played.items())},
        "leagues": ratings,
    }

"""Players: registration, bearer tokens (stored hashed), and lookups."""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import TYPE_CHECKING

from events import keys
from service.errors import NotFound

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

# A token never starts with "-" (a command line would take it for an option), and its
# prefix lets secret scanners recognise a leaked one.
TOKEN_PREFIX = "mf_"


def new_id(prefix: str) -> str:
    """Return a fresh id made of [A-Za-z0-9_-] only."""
    return prefix + secrets.token_urlsafe(9)


def hash_token(token: str) -> str:
    """Return the stored form of a bearer token."""
    return hashlib.sha256(token.encode()).hexdigest()


def create_player(boot: Bootstrap, name: str) -> dict[str, str]:
    """Register a player; the token is returned once and only its hash is kept."""
    player_id, token = new_id("p_"), TOKEN_PREFIX + secrets.token_urlsafe(32)
    record = json.dumps({"id": player_id, "name": name})
    pipe = boot.redis.pipeline(transaction=False)  # two slots in a cluster
    pipe.hset(keys.player(player_id), mapping={"name": name, "token": hash_token(token)})
    pipe.set(keys.token(hash_token(token)), record)
    pipe.execute()
    return {"id": player_id, "name": name, "token": token}


def authenticate(boot: Bootstrap, token: str) -> dict[str, str] | None:
    """Return {id, name} of the token's player, or None."""
    return from_record(boot.redis.get(keys.token(hash_token(token))))


def from_record(record: bytes | None) -> dict[str, str] | None:
    """Return {id, name} from a token's stored record (None: no such token)."""
    return json.loads(record) if record else None


def player(boot: Bootstrap, player_id: str) -> dict[str, str]:
    """Return {id, name} of a registered player, or raise NotFound."""
    name = boot.redis.hget(keys.player(player_id), "name")
    if name is None:
        raise NotFound("player_not_found", f"no player {player_id!r}")
    return {"id": player_id, "name": name.decode()}

"""Players: registration, bearer tokens (stored hashed), and lookups."""

from __future__ import annotations

import re
import secrets
from typing import TYPE_CHECKING, Any

from events import codec
from service import roles, tokens
from service.errors import Conflict, Invalid, NotFound
from service.tokens import PREFIX as TOKEN_PREFIX
from service.tokens import hash_token

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

__all__ = [
    "TOKEN_PREFIX",
    "authenticate",
    "create_player",
    "by_handle",
    "hash_token",
    "me",
    "set_handle",
    "new_id",
    "player",
]
# a handle names one player (an invitation can name a person; `name` is only shown):
# unique case-insensitively, never shaped like a player id (`p_...`)
HANDLE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{1,23}")
PLAYER_ID = re.compile(r"p_[A-Za-z0-9_-]{1,62}")


def new_id(prefix: str) -> str:
    """Return a fresh id made of [A-Za-z0-9_-] only."""
    return prefix + secrets.token_urlsafe(9)


def fold_handle(handle: str) -> str:
    """Return the form of a handle its uniqueness is checked in (case-insensitive)."""
    return handle.casefold()


def check_handle(handle: str, field: str = "handle") -> None:
    """Refuse a handle that is not 2-24 letters, digits, `_`, `.`, `-` (first a letter or
    digit), or that reads like a player id."""
    if not HANDLE.fullmatch(handle) or fold_handle(handle).startswith("p_"):
        reason = "2-24 letters, digits, '_', '.', '-', starting with a letter or digit, not 'p_'"
        raise Invalid("invalid_body", f"{handle!r} is not a handle", errors={field: [reason]})


def create_player(boot: Bootstrap, name: str, handle: str | None = None) -> dict[str, Any]:
    """Register a player; the token is returned once and only its hash is kept. A handle
    is claimed first: a taken one is refused and nothing is written."""
    player_id = new_id("p_")
    if handle is not None:
        check_handle(handle)
        if not boot.players.claim_handle(fold_handle(handle), player_id):
            raise Conflict("handle_taken", f"the handle {handle!r} is taken")
    fields = {"name": name, "created": codec.now_iso(), **({"handle": handle} if handle else {})}
    token, issued = tokens.new(player_id, name)
    boot.players.create(player_id, fields, issued)  # the record with its first token
    return {"id": player_id, "name": name, "handle": handle, "token": token}


def set_handle(boot: Bootstrap, caller: dict[str, Any], handle: str) -> dict[str, Any]:
    """Give the caller `handle` (a player registered without one, or a new one): claimed
    first, so a taken one is refused and nothing changes. The player's record then moves
    from its old handle to the new one atomically (stores.players: two updates at once
    never both read the same old handle), and whoever replaced a handle frees it, so
    however many updates race, exactly one handle stays bound."""
    check_handle(handle)
    folded, player_id = fold_handle(handle), caller["id"]
    if not boot.players.claim_handle(folded, player_id):
        if by_handle(boot, handle) != player_id:
            raise Conflict("handle_taken", f"the handle {handle!r} is taken")
    old = boot.players.set_handle(player_id, handle)
    if old and fold_handle(old) != folded:
        boot.players.free_handle(fold_handle(old), player_id)  # only if it still names us
    return me(boot, caller)


def me(boot: Bootstrap, caller: dict[str, Any]) -> dict[str, Any]:
    """Return who a token is: the player's id, name, handle, registration time, the id
    of the token used and the roles the player holds (service.roles)."""
    record = boot.players.record(caller["id"])
    if record is None:
        raise NotFound("player_not_found", f"no player {caller['id']!r}")
    return {
        "id": caller["id"],
        "name": record["name"],
        "handle": record["handle"],
        "created": record["created"],
        "token_id": caller.get("token_id"),
        "roles": roles.roles_of(boot, caller["id"]),
    }


def by_handle(boot: Bootstrap, handle: str) -> str | None:
    """Return the id of the player holding `handle` (any case), or None."""
    return boot.players.holder(fold_handle(handle))


def resolve(boot: Bootstrap, refs: list[str], field: str) -> list[dict[str, str]]:
    """Return {id, name} of each player named in `refs` (a player id or a handle), or
    refuse the list naming the first unknown entry (`<field>[i]`)."""
    out = []
    for i, ref in enumerate(refs):
        player_id = ref if PLAYER_ID.fullmatch(ref) else by_handle(boot, ref)
        name = boot.players.name(player_id) if player_id else None
        if name is None:
            why = f"no player with the id or handle {ref!r}"
            raise Invalid("invalid_body", why, errors={f"{field}[{i}]": [why]})
        out.append({"id": player_id, "name": name})
    return out


def authenticate(boot: Bootstrap, token: str) -> dict[str, Any] | None:
    """Return {id, name, token_id} of the token's player, or None."""
    return tokens.authenticate(boot, token)


def player(boot: Bootstrap, player_id: str) -> dict[str, str]:
    """Return {id, name} of a registered player, or raise NotFound."""
    name = boot.players.name(player_id)
    if name is None:
        raise NotFound("player_not_found", f"no player {player_id!r}")
    return {"id": player_id, "name": name}


def named(boot: Bootstrap, ref: str) -> dict[str, str]:
    """Return {id, name} of the player a reference names (a player id or a handle), or
    raise NotFound."""
    player_id = ref if PLAYER_ID.fullmatch(ref) else by_handle(boot, ref)
    if player_id is None:
        raise NotFound("player_not_found", f"no player with the id or handle {ref!r}")
    return player(boot, player_id)

"""Bearer tokens: who is calling."""

from __future__ import annotations

from flask import Request, request

from api.context import UNSET, caller_found, current
from service import players
from service.bootstrap import Bootstrap
from service.errors import Unauthorized


def caller(boot: Bootstrap, required: bool = True, strict: bool = True) -> dict[str, str] | None:
    """Return the calling player; raise Unauthorized on a missing (when required) or
    forged token.

    The answer is kept in the request's context, so the rate limiter and the view look
    the token up once. With `strict=False` a bad token counts as no token instead."""
    ctx = current()
    if ctx.caller is UNSET:
        ctx.caller = _lookup(boot)
    player = ctx.caller
    if isinstance(player, Unauthorized):
        if strict:
            raise player
        return None
    if player is None and required:
        raise Unauthorized("unauthorized", "send Authorization: Bearer <token>")
    return player


def bearer(req: Request | None = None) -> str | Unauthorized | None:
    """Return the bearer token of `req` (the request by default): None without one,
    Unauthorized if malformed."""
    header = (req or request).headers.get("Authorization")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return Unauthorized("unauthorized", "the Authorization header must be 'Bearer <token>'")
    return token.strip()


def _lookup(boot: Bootstrap) -> dict[str, str] | Unauthorized | None:
    token = bearer()
    if not isinstance(token, str):
        return token
    return caller_found(players.authenticate(boot, token))

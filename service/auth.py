"""Bearer tokens: who is calling."""

from __future__ import annotations

from flask import g, request

from service import usecases
from service.deps import Deps
from service.errors import Problem


def caller(deps: Deps, required: bool = True, strict: bool = True) -> dict[str, str] | None:
    """Return the calling player; raise 401 on a missing (when required) or forged token.

    The answer is kept for the rest of the request, so the rate limiter and the view look
    the token up once. With `strict=False` a bad token counts as no token instead."""
    if "caller" not in g:
        g.caller = _lookup(deps)
    player = g.caller
    if isinstance(player, Problem):
        if strict:
            raise player
        return None
    if player is None and required:
        raise Problem(401, "unauthorized", "send Authorization: Bearer <token>")
    return player


def _lookup(deps: Deps) -> dict[str, str] | Problem | None:
    header = request.headers.get("Authorization")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return Problem(401, "unauthorized", "the Authorization header must be 'Bearer <token>'")
    player = usecases.authenticate(deps, token.strip())
    return player if player is not None else Problem(401, "unauthorized", "unknown token")

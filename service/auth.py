"""Bearer tokens: who is calling."""

from __future__ import annotations

from flask import request

from service import usecases
from service.deps import Deps
from service.errors import Problem


def caller(deps: Deps, required: bool = True) -> dict[str, str] | None:
    """Return the calling player; raise 401 on a missing (when required) or forged token."""
    header = request.headers.get("Authorization")
    if not header:
        if required:
            raise Problem(401, "unauthorized", "send Authorization: Bearer <token>")
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Problem(401, "unauthorized", "the Authorization header must be 'Bearer <token>'")
    player = usecases.authenticate(deps, token.strip())
    if player is None:
        raise Problem(401, "unauthorized", "unknown token")
    return player

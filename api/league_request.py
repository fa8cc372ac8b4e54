"""What every league route reads first: the league its path names (404 for none), the
caller as one of its organizers (403 otherwise), and the caller's Idempotency-Key."""

from __future__ import annotations

import re

from flask import request

from api import auth
from api.context import boot
from api.parse import given_idempotency_key
from service import league_organizers, league_queries
from service.errors import NotFound
from service.league_commands import NO_RETRY, Retry
from service.league_queries import League

LEAGUE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def find_league(league_id: str) -> League:
    """Return the league `league_id` names, or refuse (404 `league_not_found`)."""
    if not LEAGUE_ID.fullmatch(league_id):
        raise NotFound("league_not_found", f"no league {league_id!r}")
    return league_queries.load(boot(), league_id)


def retry_of(player: dict[str, str]) -> Retry:
    """Return the caller's Idempotency-Key, scoped to them, and what it was sent with (the
    path and body): a repeat is answered with the first call's answer and writes nothing,
    the same key with another request is refused (422 `idempotency_key_reused`)."""
    key = given_idempotency_key()
    if key is None:
        return NO_RETRY
    return f"{player['id']}:{key}", {"path": request.path, "body": request.get_json(silent=True)}


def as_organizer(league_id: str, doing: str) -> tuple[dict[str, str], League]:
    """Return the caller and the league if the caller may run it (one of its organizers,
    or an operator), else refuse with the role missing (403 `not_league_organizer`)."""
    player = auth.caller(boot())
    league = find_league(league_id)
    league_organizers.require(boot(), league, player["id"], doing)
    return player, league

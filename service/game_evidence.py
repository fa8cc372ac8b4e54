"""What a dispute about a game needs beside its log: the attempts of its seated players
that the server refused (service.attempts) and the outages the workers and the API
recorded while it ran (service.outages), in readable times. Read by the table's players
and, for a league's game, by the league's organizers."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from events.codec import parse_time
from events.record import Record
from service import attempts, league_organizers, outages
from service.errors import Forbidden, NotFound
from service.league_log import load as load_league

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def game(boot: Bootstrap, game_id: str) -> Record:
    """Return the game's record, or raise NotFound."""
    rec = boot.store.load(game_id).record
    if not rec.version:
        raise NotFound("game_not_found", f"no game {game_id!r}")
    return rec


def may_read(boot: Bootstrap, rec: Record, viewer: str) -> bool:
    """Return True if `viewer` holds a seat at the table or organizes its league."""
    if rec.seat_of(viewer) is not None:
        return True
    if rec.league:
        return league_organizers.may_run(boot, load_league(boot, rec.league["id"]), viewer)
    return False


def check(boot: Bootstrap, rec: Record, viewer: str) -> None:
    """Raise Forbidden unless `viewer` may read the game's evidence."""
    if not may_read(boot, rec, viewer):
        raise Forbidden(
            "not_seated",
            "only the table's players and its league's organizers may read this",
        )


def span(boot: Bootstrap, rec: Record) -> tuple[float, float]:
    """Return when the game was created and when it ended (now if it runs on)."""
    start = parse_time(rec.created_at).timestamp()
    if rec.status in ("finished", "cancelled"):
        last = boot.store.read(rec.game_id, rec.version - 1, 1)
        return start, parse_time(last[0]["at"]).timestamp()
    return start, time.time()


def evidence(boot: Bootstrap, rec: Record, viewer: str) -> dict[str, Any]:
    """Return the refused attempts and the outages during the game (checked reader)."""
    check(boot, rec, viewer)
    start, end = span(boot, rec)
    return {
        "game": rec.game_id,
        "status": rec.status,
        "refused": attempts.read(boot, rec, viewer),
        "outages": outages.during(boot.operations, start, end),
    }

"""Waiting games: how many one player may keep open, and how long one may wait.

A game waits for its seats from its creation until the last seat fills. Two limits keep
the lobby from filling with games nobody will play (issue #27.6):

- a player may create or sit in at most `WAITING_GAMES_PER_PLAYER` waiting games at once
  (10); one more is `409 too_many_waiting_games`. The games a player created are kept in
  stores.tables (pruned of games that stopped waiting as it is read), those it
  sits in are its unfinished games (service.inbox).
- a game still waiting `WAITING_EXPIRE_S` after its creation (24 h) is cancelled by a
  worker: the command `lapse` appends `game.Cancelled` {by: "system", reason:
  "expired"}, which an audit decides again like any other. From its expiry on the game is
  listed nowhere (the lobby and every player's games skip it even before the worker's
  sweep reaches it), and a cancelled game is not joinable.

League games are neither counted nor expired: their league seats and starts them.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from events import codec, seating
from events.record import WAITING, Record
from games.rng import Rng
from service import lobby, loop
from service.errors import Conflict
from service.game_log import GameLog
from service.loop import Outcome

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

KEY = "waiting"  # the key of a game's lapse in the deadline index (`lapse|<game>|waiting`)


def expires_at(boot: Bootstrap, created_at: str | None) -> float | None:
    """Return when a game created at `created_at` (ISO) stops waiting (Unix time)."""
    if not created_at:
        return None
    return codec.parse_time(created_at).timestamp() + float(boot.config["WAITING_EXPIRE_S"])


def count(boot: Bootstrap, player_id: str, besides: str | None = None) -> int:
    """Return how many waiting, unexpired games the player created or sits in, game
    `besides` aside."""
    created, seated = boot.tables.own_games(player_id)
    ids = sorted((set(created) | set(seated)) - {besides})
    if not ids:
        return 0
    summaries = boot.lobby.summaries(ids)
    now, waiting, stale = time.time(), 0, []
    keep_s = float(boot.config["WAITING_EXPIRE_S"])
    for game_id, kept in zip(ids, summaries, strict=True):
        summary = kept or {}
        if summary.get("status") == WAITING and not lobby.lapsed(summary, keep_s, now):
            waiting += int(not summary.get("league"))
        elif summary.get("status") not in (None, WAITING):
            stale.append(game_id)
    if stale:
        boot.tables.forget_created(player_id, stale)
    return waiting


def check(boot: Bootstrap, player_id: str, joining: str | None = None) -> None:
    """Refuse a player already at the most waiting games it may keep, before it creates
    one or joins game `joining` (which counts already if the player created it)."""
    most = int(boot.config["WAITING_GAMES_PER_PLAYER"])
    if count(boot, player_id, joining) >= most:
        raise Conflict(
            "too_many_waiting_games",
            f"at most {most} waiting games per player (created or joined); start, leave or "
            "cancel one first",
        )


def created(boot: Bootstrap, rec: Record) -> None:
    """Remember a new game (not a league's) for its creator's count and schedule its lapse."""
    if rec.league or rec.status != WAITING:
        return
    score = codec.parse_time(rec.created_at).timestamp() if rec.created_at else time.time()
    boot.tables.note_created(rec.creator, rec.game_id, score)
    until = expires_at(boot, rec.created_at) or time.time()
    boot.scheduler.lapse(rec.game_id, KEY, until)


def lapse(boot: Bootstrap, game_id: str) -> Outcome:
    """Cancel the game if it is still waiting (a no-op otherwise, however often run)."""

    def decide_lapse(rec: Record, rng: Rng):
        return "system", seating.lapse(rec) if rec.status == WAITING and not rec.league else []

    log = GameLog(boot, game_id)
    return loop.run(boot, log, decide_lapse, cause=f"lapse:{game_id}", command={"type": "lapse"})

"""The lobby: an index of games by status, ruleset and player, read newest first a page
at a time.

After every append that changes a game's lobby facts (created, a seat taken or freed,
started, ended, cancelled) `index` stores the game's summary and moves it between the
status sets in one Lua call on the `{lobby}` keys. Each summary carries the game's
version and the script keeps the newest, so two appends finishing in either order leave
the index as the later one says. A player's games (`mf:player:<id>:history`) are kept by
`service.inbox` with the rest of the player's keys.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from events import codec, keys, scripts
from events.decide import claim_after
from events.record import ACTIVE, FINISHED, WAITING, Record
from service.errors import Invalid

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

STATUSES = (WAITING, ACTIVE, FINISHED)
SCAN_MOST = 1000  # entries one page looks at before it answers (maybe short) with `next`


def created_ms(rec: Record) -> int:
    """Return when the game was created, in ms since the epoch (its place in the index)."""
    return int(codec.parse_time(rec.created_at).timestamp() * 1000) if rec.created_at else 0


def summary(rec: Record) -> dict[str, Any]:
    """Return what a list shows of a game."""
    return {
        "id": rec.game_id,
        "ruleset": rec.ruleset,
        "status": rec.status,
        "options": rec.options,
        "players": rec.players,
        "seats_taken": len(rec.seats),
        "seats": [{"seat": s.seat, "player": s.player, "name": s.name} for s in rec.seats],
        "decision_timeout_s": rec.decision_timeout_s,
        # an untimed game's idle time before a claim, shown before anyone joins (#49)
        "claim_after_s": claim_after(rec),
        "created_at": rec.created_at,
        "creator": rec.creator,
        "league": rec.league,
        "unlisted": rec.unlisted,
        "invited": [{"player": p, "name": n, "answer": a} for p, n, a in rec.invited],
        "reserved_until": rec.reserved_until,
        "version": rec.version,
    }


def lapsed(summary: dict[str, Any], keep_s: float, now: float) -> bool:
    """Return True for the summary of a game (not a league's) still waiting `keep_s` after
    its creation: it is listed no more (service.waiting cancels it)."""
    if summary.get("status") != WAITING or summary.get("league") or not summary.get("created_at"):
        return False
    return codec.parse_time(summary["created_at"]).timestamp() + keep_s <= now


def changed(old: Record, new: Record) -> bool:
    """Return True if an append changed what the lobby shows of the game."""
    return (
        old.version == 0
        or old.status != new.status
        or old.seats != new.seats
        or old.invited != new.invited
        or old.unlisted != new.unlisted
    )


def index(boot: Bootstrap, rec: Record) -> bool:
    """Store the game's summary and file it under its status (events.scripts.LOBBY_INDEX);
    return False if the index already held this version or a later one."""
    script = scripts.registered(boot.redis, scripts.LOBBY_INDEX)
    listed = "unlisted" if rec.unlisted else rec.status
    status_keys = [keys.lobby(s) for s in STATUSES]
    return bool(
        script(
            keys=[
                keys.lobby_summaries(),
                keys.lobby("all"),
                *status_keys,
                keys.lobby_ruleset(rec.ruleset),
            ],
            # an unlisted game keeps its summary (its players' lists show it) but no set
            args=[rec.game_id, rec.version, json.dumps(summary(rec)), listed, created_ms(rec)],
        )
    )


def cursor(text: str | None) -> tuple[int, str] | None:
    """Decode a `next` cursor, `<creation ms>-<game id>` (None: from the newest)."""
    if not text:
        return None
    score, _, game_id = text.partition("-")
    if not score.isdigit() or not game_id:
        errors = {"cursor": ["the `next` of a previous page"]}
        raise Invalid("invalid_query", "cursor is not one this server gave", errors=errors)
    return int(score), game_id


def _encode(score: int, game_id: str) -> str:
    return f"{score}-{game_id}"


def page(boot: Bootstrap, query: dict[str, Any]) -> dict[str, Any]:
    """Return up to `limit` game summaries matching `status`, `ruleset` and `player`,
    newest first, after `cursor` (unlisted games only with `unlisted`, for a player's own
    list); `next` is the cursor of the following page (None at the
    end). A page may hold fewer than `limit` games and still have a `next`."""
    status, ruleset, player = query.get("status"), query.get("ruleset"), query.get("player")
    if player:
        source = keys.player_history(player)
    elif ruleset:
        source = keys.lobby_ruleset(ruleset)
    else:
        source = keys.lobby(status or "all")
    limit, after = query["limit"], cursor(query.get("cursor"))
    keep_s, now = float(boot.config["WAITING_EXPIRE_S"]), time.time()
    found: list[dict[str, Any]] = []
    top, scanned, last = "+inf" if after is None else after[0], 0, None
    while len(found) < limit and scanned < SCAN_MOST:
        batch = boot.redis.zrevrangebyscore(
            source, top, "-inf", start=0, num=limit + 50, withscores=True
        )
        fresh = [
            (m.decode(), int(s))
            for m, s in batch
            if after is None or int(s) < after[0] or m.decode() < after[1]
        ]
        if not fresh:
            return {"games": found, "next": None}
        scanned += len(fresh)
        summaries = boot.redis.hmget(keys.lobby_summaries(), [g for g, _ in fresh])
        for (game_id, score), raw in zip(fresh, summaries, strict=True):
            last = after = (score, game_id)
            game = json.loads(raw) if raw else None
            if game is None or game["status"] not in STATUSES or lapsed(game, keep_s, now):
                continue
            if (status and game["status"] != status) or (ruleset and game["ruleset"] != ruleset):
                continue
            if game.get("unlisted") and not query.get("unlisted"):
                continue  # only its own players' lists show an unlisted game
            found.append(game)
            if len(found) == limit:
                break
        top = after[0]
    return {"games": found, "next": _encode(*last) if last else None}

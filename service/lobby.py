"""The lobby: an index of games by status, ruleset and player, read newest first a page
at a time.

After every append that changes a game's lobby facts (created, a seat taken or freed,
started, ended, cancelled) `index` stores the game's summary and moves it between the
status sets (stores.lobby: one Lua call on the `{lobby}` keys in Redis). Each summary
carries the game's version and the store keeps the newest, so two appends finishing in
either order leave the index as the later one says. A player's games
(`mf:player:<id>:history`) are kept by `service.inbox` with the rest of the player's keys.
"""

from __future__ import annotations

import base64
import os
import struct
import time
from typing import TYPE_CHECKING, Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from events import codec
from events.decide import claim_after
from events.record import ACTIVE, FINISHED, WAITING, Record, Seat
from service.errors import Invalid

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

STATUSES = (WAITING, ACTIVE, FINISHED)
SCAN_MOST = 1000  # entries one page looks at before it answers (maybe short) with `next`


def created_ms(rec: Record) -> int:
    """Return when the game was created, in ms since the epoch (its place in the index)."""
    return int(codec.parse_time(rec.created_at).timestamp() * 1000) if rec.created_at else 0


def seat_json(s: Seat) -> dict[str, Any]:
    """Return a seat as lists and games show it: `computer` names a computer player's
    level (`{"level": ...}`), null for a person."""
    mark = {"level": s.computer} if s.computer else None
    return {"seat": s.seat, "player": s.player, "name": s.name, "computer": mark}


def summary(rec: Record) -> dict[str, Any]:
    """Return what a list shows of a game."""
    return {
        "id": rec.game_id,
        "ruleset": rec.ruleset,
        "status": rec.status,
        "options": rec.options,
        "players": rec.players,
        "seats_taken": len(rec.seats),
        "seats": [seat_json(s) for s in rec.seats],
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
    """Store the game's summary and file it under its status (stores.lobby); return False
    if the index already held this version or a later one."""
    # an unlisted game keeps its summary (its players' lists show it) but no set
    listed = "unlisted" if rec.unlisted else rec.status
    return boot.lobby.index(rec.game_id, rec.version, summary(rec), listed, created_ms(rec))


def cursor(boot: Bootstrap, text: str | None) -> tuple[float, int] | None:
    """Open a `next` cursor: the place after which the next page starts, as (creation ms,
    how many entries of that ms were passed already); None: from the newest."""
    if not text:
        return None
    try:
        sealed = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        try:
            plain = AESGCM(boot.lobby.cursor_key()).decrypt(sealed[:12], sealed[12:], CURSOR_AAD)
        except InvalidTag:  # maybe a key this process has not read yet: read it again
            key = boot.lobby.cursor_key(again=True)
            plain = AESGCM(key).decrypt(sealed[:12], sealed[12:], CURSOR_AAD)
        score, passed = struct.unpack(">qI", plain)
    except (ValueError, InvalidTag, struct.error):
        errors = {"cursor": ["the `next` of a previous page"]}
        raise Invalid(
            "invalid_query", "cursor is not one this server gave", errors=errors
        ) from None
    return float(score), passed


def _seal(boot: Bootstrap, score: float, passed: int) -> str:
    """A cursor names no game and no time: the place is sealed (AES-GCM with a key kept
    in the store), so a page that skipped an unlisted game cannot point at it (#49.3). Every
    cursor is as long as every other."""
    nonce = os.urandom(12)
    sealed = AESGCM(boot.lobby.cursor_key()).encrypt(
        nonce, struct.pack(">qI", int(score), passed), CURSOR_AAD
    )
    return base64.urlsafe_b64encode(nonce + sealed).rstrip(b"=").decode()


CURSOR_AAD = b"marketfold lobby cursor v1"


def page(boot: Bootstrap, query: dict[str, Any]) -> dict[str, Any]:
    """Return up to `limit` game summaries matching `status`, `ruleset` and `player`,
    newest first, after `cursor` (unlisted games only with `unlisted`, for a player's own
    list); `next` is the sealed cursor of the following page (None at the end). A page may
    hold fewer than `limit` games and still have a `next`."""
    status, ruleset, player = query.get("status"), query.get("ruleset"), query.get("player")
    if player:
        source = ("player", player)
    elif ruleset:
        source = ("ruleset", ruleset)
    else:
        source = ("status", status or "all")
    limit, after = query["limit"], cursor(boot, query.get("cursor"))
    keep_s, now = float(boot.config["WAITING_EXPIRE_S"]), time.time()
    found: list[dict[str, Any]] = []
    # the place: entries scored above `top` are passed, and `passed` of those scored `top`
    top, passed = after if after is not None else (float("inf"), 0)
    scanned = 0
    while len(found) < limit and scanned < SCAN_MOST:
        batch = boot.lobby.newest(source, top, passed, limit + 50)
        if not batch:
            return {"games": found, "next": None}
        scanned += len(batch)
        summaries = boot.lobby.summaries([m for m, _ in batch])
        for (_, score), game in zip(batch, summaries, strict=True):
            top, passed = (top, passed + 1) if score == top else (score, 1)
            if game is None or game["status"] not in STATUSES or lapsed(game, keep_s, now):
                continue
            if (status and game["status"] != status) or (ruleset and game["ruleset"] != ruleset):
                continue
            if game.get("unlisted") and not query.get("unlisted"):
                continue  # only its own players' lists show an unlisted game
            found.append(game)
            if len(found) == limit:
                break
    return {"games": found, "next": _seal(boot, top, passed)}

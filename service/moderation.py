"""Moderation: what the server's operators can do about abuse, and what players can report
(docs/operations.md, "Moderation").

- A **report**: any player reports a player, or one chat message of a game, with a reason.
  Reports are kept (stores.moderation) and read by operators, who close them with
  a note.
- **Mute**: the player's chat posts are refused (403 `muted`) until unmuted.
- **Ban**: every token of the player stops working at once (each token record is marked,
  so a process that holds a token in its cache meets the change at its next append, as a
  revoked token), the games the player created that still wait for seats are cancelled,
  their seats in other waiting games are freed, and their seats in running games resign
  (the rules' defaults play them to the end, as for any resignation; a league organizer may
  substitute them, docs/leagues.md). Unban lets the old tokens work again.
- **Hide** a chat message: it stays in the game's chat, marked hidden with who hid it and
  why; players and spectators read it as hidden, without its text, and operators read it
  all.

Every action is a line in the log (`marketfold.moderation`) and counted in `/metrics`.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from events import codec
from events.record import ACTIVE, WAITING
from service import game_commands, lobby_commands, metrics, roles
from service.errors import Conflict, DomainError, Forbidden, Invalid, NotFound

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

logger = logging.getLogger("marketfold.moderation")
REASON_MAX = 500
REPORTS_READ = 1000  # the newest reports an operator's list reads


def is_operator(boot: Bootstrap, player_id: str) -> bool:
    """Return True for an operator: granted the role (service.roles) or named in the
    `OPERATORS` setting."""
    return roles.has(boot, player_id, roles.OPERATOR)


def require_operator(boot: Bootstrap, player_id: str) -> None:
    """Raise MissingRole (403 `not_operator`, naming the role and how to get it) unless
    the player is one of the server's operators."""
    roles.require(boot, player_id, roles.OPERATOR, "moderation")


def _reason(text: Any) -> str:
    if not isinstance(text, str) or not text.strip():
        raise Invalid("invalid_body", "say why", errors={"reason": ["a reason is required"]})
    if len(text) > REASON_MAX:
        raise Invalid("invalid_body", "too long", errors={"reason": [f"at most {REASON_MAX}"]})
    return text.strip()


def _done(action: str, by: str, **what: Any) -> None:
    metrics.MODERATION.labels(action).inc()
    logger.info("%s by %s", action, by, extra={"action": action, "by": by, **what})


def _known_player(boot: Bootstrap, player_id: str) -> None:
    if boot.players.name(player_id) is None:
        raise NotFound("player_not_found", f"no player {player_id!r}")


# --- reports ---------------------------------------------------------------------------


def report(boot: Bootstrap, by: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    """File a report about a player (`player`) or a chat message (`game` + `message`)."""
    reason = _reason(body.get("reason"))
    player, game, message = body.get("player"), body.get("game"), body.get("message")
    if message is not None:
        if not game:
            raise Invalid(
                "invalid_body",
                "a message is named with its game",
                errors={"game": ["required with message"]},
            )
        found = boot.chat.message(game, message)
        if found is None:
            raise NotFound("message_not_found", f"no message {message!r} in game {game!r}")
        player = found["player"]
    elif player is None:
        raise Invalid(
            "invalid_body",
            "name whom you report",
            errors={"player": ["a player, or a game and a message"]},
        )
    _known_player(boot, player)
    entry = {
        "by": by["id"],
        "player": player,
        "game": game,
        "message": message,
        "reason": reason,
        "at": codec.now_iso(),
    }
    rid = boot.moderation.add_report(entry)
    _done("report", by["id"], player=player, game=game)
    return {"id": rid, **entry, "status": "open"}


def reports(boot: Bootstrap, status: str | None = None) -> list[dict[str, Any]]:
    """Every kept report, newest first, with its status (`open`, `closed`)."""
    closed = boot.moderation.closed()
    out = []
    for ident, said in boot.moderation.reports(REPORTS_READ):
        shut = closed.get(ident)
        item = {"id": ident, **said, "status": "closed" if shut else "open"}
        if shut:
            item["closed"] = shut
        if status in (None, item["status"]):
            out.append(item)
    return out


def close_report(boot: Bootstrap, operator: str, report_id: str, note: str) -> dict[str, Any]:
    if not boot.moderation.has_report(report_id):
        raise NotFound("report_not_found", f"no report {report_id!r}")
    shut = {"by": operator, "note": _reason(note), "at": codec.now_iso()}
    if not boot.moderation.close_report(report_id, shut):
        raise Conflict("report_closed", "this report is closed already")
    _done("close_report", operator, report=report_id)
    return next(r for r in reports(boot) if r["id"] == report_id)


# --- mute and ban ------------------------------------------------------------------------


def standing(boot: Bootstrap, player_id: str) -> dict[str, Any]:
    """What is in force against a player: {"muted": {...}|None, "banned": {...}|None}."""
    held = boot.moderation.standing(player_id)
    return {k: held.get(k) for k in ("muted", "banned")}


def mute(boot: Bootstrap, operator: str, player_id: str, reason: Any, on: bool) -> dict[str, Any]:
    _known_player(boot, player_id)
    if on:
        said = {"by": operator, "reason": _reason(reason), "at": codec.now_iso()}
        boot.moderation.set_standing(player_id, "muted", said)
    else:
        boot.moderation.set_standing(player_id, "muted", None)
    _done("mute" if on else "unmute", operator, player=player_id)
    return standing(boot, player_id)


def check_may_chat(boot: Bootstrap, player_id: str) -> None:
    muted = boot.moderation.standing(player_id).get("muted")
    if muted is not None:
        raise Forbidden("muted", f"the server's operators muted you: {muted['reason']}")


def ban(boot: Bootstrap, operator: str, player_id: str, reason: Any) -> dict[str, Any]:
    """Ban a player: tokens, waiting games and running seats as the module says."""
    _known_player(boot, player_id)
    if player_id == operator:
        raise Conflict("cannot_ban_self", "an operator cannot ban themself")
    said = {"by": operator, "reason": _reason(reason), "at": codec.now_iso()}
    boot.moderation.set_standing(player_id, "banned", said)
    _mark_tokens(boot, player_id, said)
    games = _leave_games(boot, player_id)
    _done("ban", operator, player=player_id, games=games)
    return {**standing(boot, player_id), "games": games}


def unban(boot: Bootstrap, operator: str, player_id: str) -> dict[str, Any]:
    _known_player(boot, player_id)
    boot.moderation.set_standing(player_id, "banned", None)
    _mark_tokens(boot, player_id, None)
    _done("unban", operator, player=player_id)
    return standing(boot, player_id)


def _mark_tokens(boot: Bootstrap, player_id: str, banned: dict[str, Any] | None) -> None:
    """Mark (or unmark) every token record of the player; `tokens.recognise` refuses a
    marked one. The record changes, so a cached copy fails its next append's check."""
    for digest in boot.tokens.digests(player_id):
        stored = boot.tokens.record(digest)
        if stored is None:
            continue
        record = json.loads(stored)
        if banned is None:
            record.pop("banned", None)
        else:
            record["banned"] = banned
        boot.tokens.replace(digest, json.dumps(record))  # not if revoked meanwhile


def _leave_games(boot: Bootstrap, player_id: str) -> list[dict[str, str]]:
    """Cancel the player's waiting games, free their waiting seats, resign running ones."""
    done = []
    for gid in boot.inbox.games(player_id):
        rec = boot.store.load(gid).record
        try:
            if rec.status == WAITING and rec.creator == player_id:
                lobby_commands.cancel(boot, gid, player_id)
                done.append({"game": gid, "done": "cancelled"})
            elif rec.status == WAITING:
                lobby_commands.leave(boot, gid, player_id)
                done.append({"game": gid, "done": "left"})
            elif rec.status == ACTIVE and rec.seat_of(player_id) is not None:
                game_commands.resign(boot, gid, player_id)
                done.append({"game": gid, "done": "resigned"})
        except DomainError as e:  # it moved on meanwhile (ended, started): nothing to do
            logger.info("ban of %s: game %s: %s", player_id, gid, e.code)
    return done


def hide(boot: Bootstrap, operator: str, game_id: str, message_id: str, reason: Any) -> dict:
    if boot.chat.message(game_id, message_id) is None:
        raise NotFound("message_not_found", f"no message {message_id!r} in game {game_id!r}")
    said = {"by": operator, "reason": _reason(reason), "at": codec.now_iso()}
    boot.chat.hide(game_id, message_id, said)
    _done("hide", operator, game=game_id, chat_message=message_id)
    return {"game": game_id, "message": message_id, "hidden": said}

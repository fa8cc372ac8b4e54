"""Table chat: kept per game beside its log (stores.chat), so talk never touches the hash
chain or a verification.

Two channels: `players` (posted by seated players) and `spectators` (posted by anyone
else with a token). While the game is not finished, players read only their own channel
(spectators could otherwise pass them hidden facts); spectators read both. Once it is
finished everyone reads both. Text is kept exactly as sent; it is at most 500 characters
and holds no control characters (checked at the edge). Each player may post
`RATE_COUNT` messages per `RATE_WINDOW_S` seconds in one game.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from events import codec
from events.record import FINISHED, Record
from service.errors import TooFast
from stores.chat import RateLimited

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

RATE_COUNT, RATE_WINDOW_S = 5, 10
KEEP = 1000  # messages kept per game (approximately)
PAGE = 200  # messages per read


def post(boot: Bootstrap, rec: Record, player: dict[str, Any], text: str) -> dict[str, Any]:
    """Post a message to the caller's channel of the game; return it with its id."""
    seat = rec.seat_of(player["id"])
    message = {
        "channel": "players" if seat is not None else "spectators",
        "player": player["id"],
        "name": player["name"],
        "seat": seat,
        "text": text,
        "at": codec.now_iso(),
    }
    rate = (RATE_COUNT, RATE_WINDOW_S * 1000)
    try:
        message_id = boot.chat.post(rec.game_id, player["id"], message, rate, KEEP)
    except RateLimited as e:
        raise TooFast(
            "chat_rate_limited",
            f"at most {RATE_COUNT} messages per {RATE_WINDOW_S} s in one game",
            retry_after=max(e.retry_ms, 1) / 1000,
        ) from None
    return {"id": message_id, **message}


def visible(message: dict[str, Any], seated: bool, status: str) -> bool:
    """Return True if a viewer (seated or not) may read the message now."""
    return status == FINISHED or not seated or message["channel"] == "players"


def read(
    boot: Bootstrap, rec: Record, seat: int | None, after: str, operator: bool = False
) -> list[dict[str, Any]]:
    """Return up to PAGE messages after id `after` the viewer may read, oldest first; a
    message an operator hid has no text but for operators (`operator`)."""
    messages = [{"id": i, **m} for i, m in boot.chat.after(rec.game_id, after, PAGE)]
    shown = [m for m in messages if visible(m, seat is not None, rec.status)]
    return _mark_hidden(boot, rec.game_id, shown, operator)


def every(boot: Bootstrap, rec: Record, seat: int | None) -> list[dict[str, Any]]:
    """Return every kept message the viewer may read (for the export), hidden ones marked
    and without their text."""
    messages = [{"id": i, **m} for i, m in boot.chat.messages(rec.game_id)]
    shown = [m for m in messages if visible(m, seat is not None, rec.status)]
    return _mark_hidden(boot, rec.game_id, shown, False)


def _mark_hidden(
    boot: Bootstrap, game_id: str, messages: list[dict[str, Any]], operator: bool
) -> list[dict[str, Any]]:
    if not messages:
        return messages
    hidden = boot.chat.hidden(game_id)
    if not hidden:
        return messages
    out = []
    for m in messages:
        said = hidden.get(m["id"])
        if said is None:
            out.append(m)
        elif operator:
            out.append({**m, "hidden": said})
        else:
            out.append({**m, "text": "", "hidden": {"reason": said["reason"]}})
    return out


def decode(entry_id: bytes | str, fields: dict[bytes, bytes]) -> dict[str, Any]:
    """Return a message as the stream holds it (an open event stream reads it there,
    service.game_stream), with its id."""
    ident = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
    return {"id": ident, **json.loads(fields[b"m"])}


def last_id(boot: Bootstrap, game_id: str) -> str:
    """Return the id of the game's newest message ("0-0" when none)."""
    return boot.chat.last_id(game_id)

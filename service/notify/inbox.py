"""The in-app inbox: a player's notifications, with read and unread.

A notification *is* a note of the player's feed (`mf:player:<id>:feed`, service.inbox):
`stage` writes the note with an `id` (`n_<hex>`) and a `notify|<player>|<id>` member of
the notifications' due sets (events.keys.notify_due), both in the same follow-up writes of
the append that caused it (on one Redis inside the append's script), so the game event and
its notification are written together or not at all; a worker's notifier claims the member
and plans its deliveries
(service.notify.dispatch), reading the note back from the player's feed. (No copy under a
key of its own: on a Redis Cluster such a key falls on any master, and one master down
would then refuse moves of games whose players' keys are all up.) Read marks are a
watermark (every note up to a feed id is read: "mark all read") and a set of ids read one
by one after it. The feed keeps the newest FEED_MAXLEN notes; so does the inbox. All of
it is kept by the inbox port (stores/inbox.py, `boot.inbox`).
"""

from __future__ import annotations

import json
import secrets
import time
from typing import TYPE_CHECKING, Any

from events import codec, keys
from events.recording import Writes
from service.errors import NotFound
from service.notify import types
from service.ports import due_member

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

FEED_MAXLEN = 1000  # notes kept per player (approximately), as service.inbox keeps them
NOTE_KEEP_S = 14 * 24 * 3600  # how long a notification's delivery marks are kept
PAGE = 20


def new_id() -> str:
    return "n_" + secrets.token_hex(10)


def stage(
    pipe: Writes,
    player: str,
    note: dict[str, Any],
    note_id: str | None = None,
    live_delay_s: float = 0.0,
) -> str:
    """Add to `pipe` (an append's Writes, or writes of their own for `boot.inbox.write`)
    the note on the player's feed and its notification's planning; return its id.

    A turn's planning is due when its deliveries would be (`live_delay`, with the server's
    NOTIFY_LIVE_DELAY_S as `live_delay_s`), so that a decision made before then costs one
    look at the game and nothing else (service.notify.dispatch.plan)."""
    nid = note_id or new_id()
    entry = {"id": nid, **note}
    entry.setdefault("at", codec.now_iso())
    text = json.dumps(entry, separators=(",", ":"))
    pipe.xadd(keys.player_feed(player), {"n": text}, maxlen=FEED_MAXLEN, approximate=True)
    turn, now = types.is_turn(note.get("type", "")), time.time()
    due = now + (live_delay(entry, live_delay_s, now) if turn else 0.0)
    pipe.zadd(keys.notify_due(turn), {due_member("notify", player, nid): due})
    return nid


def live_delay(note: dict[str, Any], delay_s: float, now: float) -> float:
    """How long a turn notification waits for the player to see it live: the server's
    delay, at most half the time left before its deadline (a reminder: none)."""
    if note.get("type") == "deadline_reminder":
        return 0.0
    if deadline := note.get("deadline"):
        return min(delay_s, max(0.0, (codec.parse_time(deadline).timestamp() - now) / 2))
    return delay_s


def emit(boot: Bootstrap, player_id: str, note: dict[str, Any], note_id: str | None = None) -> str:
    """Notify a player of something outside a game's append (a reminder, a webhook
    disabled): the note and its planning written together (stores.inbox). With `note_id`,
    a second call for the same id writes nothing (a job run twice). Return the id."""
    if note_id is not None and find(boot, player_id, note_id) is not None:
        return note_id
    note = {"game": None, "ruleset": None, "league": None, **note}
    writes = Writes()
    nid = stage(writes, player_id, note, note_id)
    boot.inbox.write(writes)
    return nid


def find(boot: Bootstrap, player_id: str, note_id: str) -> dict[str, Any] | None:
    """Return the player's notification `note_id` while their feed keeps it, else None."""
    return boot.inbox.note(player_id, note_id)


def url_path(note: dict[str, Any]) -> str:
    """The page a notification opens: the table, else the league, else home."""
    if note.get("game"):
        return f"/#/g/{note['game']}"
    if (league := note.get("league")) and league.get("id"):
        return f"/leagues/{league['id']}"
    return "/"


def _after(a: str, b: str) -> bool:
    """True if feed id `a` is newer than `b`."""
    x, y = a.split("-"), b.split("-")
    return (int(x[0]), int(x[1])) > (int(y[0]), int(y[1]))


def _item(entry_id: str, note: dict[str, Any], read: bool) -> dict[str, Any]:
    return {
        "id": note.get("id") or entry_id,
        "feed_id": entry_id,
        "type": note.get("type"),
        "at": note.get("at"),
        "read": read,
        "url": url_path(note),
        "note": types.public(note),
    }


def unread(boot: Bootstrap, player_id: str) -> int:
    """How many of the player's kept notifications are unread."""
    seen, read = boot.inbox.marks(player_id)
    return sum(1 for fid, note in boot.inbox.since(player_id, seen) if _id(fid, note) not in read)


def _id(feed_id: str, note: dict[str, Any]) -> str:
    return note.get("id") or feed_id


def page(
    boot: Bootstrap,
    player_id: str,
    before: str | None = None,
    limit: int = PAGE,
    unread_only: bool = False,
) -> dict[str, Any]:
    """The player's notifications, newest first, `limit` at most, older than feed id
    `before` if given; `next` is the `before` of the next page (None at the end)."""
    seen, read = boot.inbox.marks(player_id)
    items: list[dict[str, Any]] = []
    top, last = before, None
    while len(items) < limit:
        got = boot.inbox.newest(player_id, top, limit * 2)
        if not got:
            last = None
            break
        for feed_id, note in got:
            last = feed_id
            is_read = not _after(feed_id, seen) or _id(feed_id, note) in read
            if unread_only and is_read:
                continue
            items.append(_item(feed_id, note, is_read))
            if len(items) == limit:
                break
        top = last
    more = last is not None and bool(boot.inbox.newest(player_id, last, 1))
    return {
        "notifications": items,
        "unread": unread(boot, player_id),
        "next": last if more else None,
    }


def mark_read(boot: Bootstrap, player_id: str, note_id: str) -> None:
    """Mark one notification read; NotFound if the player has none of that id."""
    if not any(_id(fid, note) == note_id for fid, note in boot.inbox.newest(player_id)):
        raise NotFound("notification_not_found", f"no notification {note_id!r}")
    boot.inbox.mark_read(player_id, note_id)


def mark_all_read(boot: Bootstrap, player_id: str) -> None:
    """Mark every notification the player has now read (newer ones stay unread)."""
    newest = boot.inbox.last_id(player_id)
    boot.inbox.mark_all_read(player_id, newest if newest != "0-0" else None)


def is_read(boot: Bootstrap, player_id: str, note_id: str, at_ms: int | None = None) -> bool:
    """Whether the player marked notification `note_id` read (one by one, or all up to
    a feed id at or after `at_ms`, the note's time in ms)."""
    return marked(*boot.inbox.marks(player_id), note_id, at_ms)


def marked(seen: str, read: set[str], note_id: str, at_ms: int | None) -> bool:
    """`is_read`, on the marks read already."""
    return note_id in read or (at_ms is not None and int(seen.split("-")[0]) >= at_ms)

"""What a notification step knows of its recipient, read in one round trip: their
settings, read marks, whether they follow the service live, the note, and what every
channel keeps of their targets. A step that reads them one by one makes a dozen round
trips per message, which at a busy table cost more worker time than the sends
(docs/notifications.md, "Figures")."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from events import codec, keys, notify_keys
from service.notify import inbox, prefs
from service.notify.channels import CHANNELS
from service.notify.message import Target

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


@dataclass(frozen=True)
class Recipient:
    player: str
    settings: dict[str, Any]
    seen: str  # the read watermark (a feed id)
    read: set[str]  # the notifications read one by one after it
    live: bool  # an event stream (a game's or their feed) open with their token now
    note: dict[str, Any] | None  # the notification the step is about, while kept
    stored: dict[str, Any]  # channel name -> what its `read` read
    more: list[Any]  # the answers to the caller's own reads, in order

    def has_read(self, note: dict[str, Any]) -> bool:
        at = codec.parse_time(note["at"]).timestamp() if note.get("at") else 0.0
        return inbox.marked(self.seen, self.read, note["id"], int(at * 1000))

    def targets(self, boot: Bootstrap, channel: str, type_: str) -> list[Target]:
        return CHANNELS[channel].targets(boot, self.player, type_, self.stored[channel])


def look(boot: Bootstrap, player: str, note_id: str, *more: tuple[str, Any]) -> Recipient:
    """Read everything a step needs of `player` and note `note_id` in one pipeline, with
    the caller's own reads `more` (a command name and its arguments) answered in order."""
    pipe = boot.redis.pipeline(transaction=False)
    pipe.get(notify_keys.player_notify(player))
    inbox.marks(pipe, player)
    pipe.zcount(keys.open_streams(f"player:{player}"), int(time.time() * 1000), "+inf")
    inbox.newest(pipe, player)
    for channel in CHANNELS.values():
        channel.read(pipe, player)
    for command, *args in more:
        getattr(pipe, command)(*args)
    settings, seen, read, live, newest, *rest = pipe.execute()
    stored = dict(zip(CHANNELS, rest[: len(CHANNELS)]))
    note = inbox.found(newest, note_id)
    if note is None and len(newest) >= inbox.SCAN:  # older than the newest page
        note = inbox.find(boot, player, note_id)
    marks = inbox.read_marks(seen, read)
    return Recipient(
        player, prefs.parse(settings), *marks, live > 0, note, stored, rest[len(CHANNELS) :]
    )

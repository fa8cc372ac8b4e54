"""What a notification step knows of its recipient, read in one round trip: their
settings, read marks, whether they follow the service live, the note, and what every
channel keeps of their targets (the recipients port, stores/recipients.py). A step that
reads them one by one makes a dozen round trips per message, which at a busy table cost
more worker time than the sends (docs/notifications.md, "Figures")."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from events import codec
from service.notify import inbox, prefs
from service.notify.channels import CHANNELS
from service.notify.message import Target
from stores.inbox import SCAN, find
from stores.notify_outbox import Delivery

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
    ended: str | None = None  # the delivery asked of: its outcome, once it ended
    tried: int = 0  # the delivery asked of: its attempts so far

    def has_read(self, note: dict[str, Any]) -> bool:
        at = codec.parse_time(note["at"]).timestamp() if note.get("at") else 0.0
        return inbox.marked(self.seen, self.read, note["id"], int(at * 1000))

    def targets(self, boot: Bootstrap, channel: str, type_: str) -> list[Target]:
        return CHANNELS[channel].targets(boot, self.player, type_, self.stored[channel])


def look(boot: Bootstrap, player: str, note_id: str, delivery: Delivery | None = None) -> Recipient:
    """Read everything a step needs of `player` and note `note_id` in one round trip, with
    the mark and attempts of `delivery` (note id, channel, target id, key) if given."""
    reads = {name: channel.read for name, channel in CHANNELS.items()}
    got = boot.recipients.look(player, int(time.time() * 1000), reads, delivery)
    note = find(got.newest, note_id)
    if note is None and len(got.newest) >= SCAN:  # older than the newest page
        note = inbox.find(boot, player, note_id)
    return Recipient(
        player,
        prefs.parse(got.settings),
        got.seen,
        got.read,
        got.live,
        note,
        got.stored,
        got.ended,
        got.tried,
    )

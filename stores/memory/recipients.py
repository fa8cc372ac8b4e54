"""A recipient's look in memory (stores.recipients.RedisRecipients's twin), made of the
other twins' reads. The channels' reads are not run (there is no pipeline): each
channel's `stored` is None, and the channel asks its own port. Whether the player holds
an event stream open is asked of `live` (the stream slots' count, given by whoever
builds this one; by default none is)."""

from __future__ import annotations

from collections.abc import Callable

from stores.inbox import SCAN
from stores.memory.inbox import MemoryInbox
from stores.memory.notify_outbox import MemoryNotifyOutbox
from stores.memory.notify_prefs import MemoryNotifyPrefs
from stores.notify_outbox import Delivery
from stores.recipients import Looked, Read


class MemoryRecipients:
    def __init__(
        self,
        inbox: MemoryInbox,
        prefs: MemoryNotifyPrefs,
        outbox: MemoryNotifyOutbox,
        live: Callable[[str, int], int] = lambda caller, now_ms: 0,
    ) -> None:
        self.inbox, self.prefs, self.outbox, self.live = inbox, prefs, outbox, live

    def look(
        self, player_id: str, now_ms: int, reads: dict[str, Read], delivery: Delivery | None = None
    ) -> Looked:
        ended, tried = None, 0
        if delivery is not None:
            ended, tried = self.outbox.ended(delivery), self.outbox.tried(delivery)
        return Looked(
            self.prefs.settings(player_id),
            *self.inbox.marks(player_id),
            self.live(f"player:{player_id}", now_ms) > 0,
            self.inbox.newest(player_id, None, SCAN),
            dict.fromkeys(reads),
            ended,
            tried,
        )

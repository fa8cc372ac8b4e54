"""What a notification step reads of its recipient (service.notify.recipient), in one
round trip: their settings (stores.notify_prefs), read marks and newest notes
(stores.inbox), whether they hold an event stream open now (`mf:streams:player:<id>`,
service.stream_slots), what each channel keeps of their targets (each channel's own
read, queued on the same pipeline), and, for a delivery, its mark and attempts
(stores.notify_outbox). Read one by one, these were a dozen round trips per message,
which at a busy table cost more worker time than the sends (docs/notifications.md)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import redis

from events import keys, notify_keys
from stores import inbox, notify_prefs
from stores.inbox import Note
from stores.notify_outbox import Delivery

# a channel's read: queue on a Redis pipeline what its targets need of a player
Read = Callable[[Any, str], None]


@dataclass(frozen=True)
class Looked:
    settings: dict[str, Any] | None  # what the player set (stores.notify_prefs)
    seen: str  # every note up to this feed id is read
    read: set[str]  # the notes read one by one after it
    live: bool  # an event stream open with their token now
    newest: list[Note]  # their newest notes (inbox.SCAN at most), newest first
    stored: dict[str, Any]  # channel -> what its read read (None: ask its port)
    ended: str | None = None  # the delivery's outcome, if it ended
    tried: int = 0  # the delivery's attempts so far


class RecipientsStore(Protocol):
    def look(
        self, player_id: str, now_ms: int, reads: dict[str, Read], delivery: Delivery | None = None
    ) -> Looked:
        """Everything a step needs of `player_id` at `now_ms` (`reads`: each channel's)."""


class RedisRecipients:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def look(
        self, player_id: str, now_ms: int, reads: dict[str, Read], delivery: Delivery | None = None
    ) -> Looked:
        pipe = self.redis.pipeline(transaction=False)
        notify_prefs.read_settings(pipe, player_id)
        pipe.get(notify_keys.player_notes_seen(player_id))
        pipe.smembers(notify_keys.player_notes_read(player_id))
        pipe.zcount(keys.open_streams(f"player:{player_id}"), now_ms, "+inf")
        pipe.xrevrange(keys.player_feed(player_id), "+", "-", count=inbox.SCAN)
        for read in reads.values():
            read(pipe, player_id)
        if delivery is not None:
            pipe.get(notify_keys.notify_done(*delivery[:3]))
            pipe.hget(notify_keys.notify_attempts(delivery[0]), delivery[3])
        settings, seen, read_ids, live, newest, *rest = pipe.execute()
        stored = dict(zip(reads, rest[: len(reads)]))
        ended, tried = rest[len(reads) :] if delivery is not None else (None, None)
        return Looked(
            notify_prefs.settings_from(settings),
            *inbox.read_marks(seen, read_ids),
            live > 0,
            [inbox.entry(e, f) for e, f in newest],
            stored,
            ended.decode() if ended is not None else None,
            int(tried or 0),
        )

"""How many event streams a caller holds open, and whether one may go on.

Each open stream is counted against its caller (stores.stream_slots) until two
heartbeats from now, refreshed every heartbeat, so that a crashed process's streams stop
counting after two heartbeats. The refresh also looks the stream's bearer token up in the
same round trip: a stream whose token was revoked ends within one heartbeat.
"""

from __future__ import annotations

import time
import uuid
from typing import TYPE_CHECKING

from service.tokens import hash_token

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


class Slot:
    """One open stream counted against its caller's cap (`token`: the bearer token it
    was opened with, None for an anonymous caller)."""

    def __init__(self, boot: Bootstrap, caller: str, beat: float, token: str | None = None):
        self.slots, self.caller, self.id = boot.stream_slots, caller, uuid.uuid4().hex
        self.ttl_ms = int((2 * beat + 5) * 1000)
        self.token = hash_token(token) if token else None

    def open(self, cap: int) -> bool:
        """Take a place if the caller holds fewer than `cap` streams; True if it did."""
        return self.slots.open(self.caller, self.id, int(time.time() * 1000), self.ttl_ms, cap)

    def refresh(self) -> bool:
        """Keep the place for two more heartbeats; False if the stream's token is gone
        (revoked): the stream must end."""
        until = int(time.time() * 1000) + self.ttl_ms
        return self.slots.refresh(self.caller, self.id, until, self.ttl_ms, self.token)

    def close(self) -> None:
        self.slots.close(self.caller, self.id)

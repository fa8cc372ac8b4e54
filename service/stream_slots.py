"""How many event streams a caller holds open, and whether one may go on.

Each open stream is a member of `mf:streams:<caller>` (a sorted set scored by expiry),
refreshed every heartbeat so that a crashed process's streams stop counting after two
heartbeats. The refresh also looks the stream's bearer token up in the same round trip:
a stream whose token was revoked ends within one heartbeat.
"""

from __future__ import annotations

import time
import uuid
from typing import TYPE_CHECKING

from events import keys, scripts
from service.tokens import hash_token

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


class Slot:
    """One open stream counted against its caller's cap (`token`: the bearer token it
    was opened with, None for an anonymous caller)."""

    def __init__(self, boot: Bootstrap, caller: str, beat: float, token: str | None = None):
        self.boot, self.key, self.id = boot, keys.open_streams(caller), uuid.uuid4().hex
        self.ttl_ms = int((2 * beat + 5) * 1000)
        self.token = keys.token(hash_token(token)) if token else None

    def open(self, cap: int) -> bool:
        """Take a place if the caller holds fewer than `cap` streams; True if it did."""
        now = int(time.time() * 1000)
        script = scripts.registered(self.boot.redis, scripts.OPEN_SLOT)
        args = [now, now + self.ttl_ms, cap, self.id, self.ttl_ms]
        return bool(script(keys=[self.key], args=args))

    def refresh(self) -> bool:
        """Keep the place for two more heartbeats; False if the stream's token is gone
        (revoked): the stream must end."""
        pipe = self.boot.redis.pipeline(transaction=False)
        pipe.zadd(self.key, {self.id: int(time.time() * 1000) + self.ttl_ms}, xx=True)
        pipe.pexpire(self.key, self.ttl_ms)
        if self.token is not None:
            pipe.exists(self.token)
        answers = pipe.execute()
        return self.token is None or bool(answers[-1])

    def close(self) -> None:
        self.boot.redis.zrem(self.key, self.id)

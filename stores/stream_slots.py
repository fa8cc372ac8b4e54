"""The event streams each caller holds open (service.stream_slots): `mf:streams:<caller>`,
a sorted set of stream ids scored by when each stops counting (ms), with a time to live;
a refresh also tells whether the stream's bearer token still exists (`mf:token:<digest>`,
read in the same round trip). Opening is one Lua call (events.scripts.OPEN_SLOT)."""

from __future__ import annotations

from typing import Protocol

import redis

from events import keys, scripts


class StreamSlotsStore(Protocol):
    def open(self, caller: str, stream: str, now_ms: int, ttl_ms: int, cap: int) -> bool:
        """Count the stream against its caller until `now_ms + ttl_ms` unless the caller
        holds `cap` streams still counting at `now_ms`; True if it may open."""

    def refresh(
        self, caller: str, stream: str, until_ms: int, ttl_ms: int, token: str | None
    ) -> bool:
        """Count an open stream until `until_ms`; False if its token (the digest of the
        bearer token it was opened with, None for none) no longer exists."""

    def close(self, caller: str, stream: str) -> None:
        """Stop counting the stream."""


class RedisStreamSlots:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def open(self, caller: str, stream: str, now_ms: int, ttl_ms: int, cap: int) -> bool:
        script = scripts.registered(self.redis, scripts.OPEN_SLOT)
        args = [now_ms, now_ms + ttl_ms, cap, stream, ttl_ms]
        return bool(script(keys=[keys.open_streams(caller)], args=args))

    def refresh(
        self, caller: str, stream: str, until_ms: int, ttl_ms: int, token: str | None
    ) -> bool:
        key = keys.open_streams(caller)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(key, {stream: until_ms}, xx=True)
        pipe.pexpire(key, ttl_ms)
        if token is not None:
            pipe.exists(keys.token(token))
        answers = pipe.execute()
        return token is None or bool(answers[-1])

    def close(self, caller: str, stream: str) -> None:
        self.redis.zrem(keys.open_streams(caller), stream)

    def open_streams(self, caller: str, now_ms: int) -> int:
        return int(self.redis.zcount(keys.open_streams(caller), now_ms, "+inf"))

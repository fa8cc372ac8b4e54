"""Open event streams in memory (stores.stream_slots.RedisStreamSlots's twin). Whether a
stream's token still exists is asked of `token_exists` (the tokens' twin's, given by
whoever builds this one); by default no token is known, as stores.memory.limits says."""

from __future__ import annotations

from collections.abc import Callable


class MemoryStreamSlots:
    def __init__(self, token_exists: Callable[[str], bool] = lambda digest: False) -> None:
        self.token_exists = token_exists
        self._open: dict[str, dict[str, int]] = {}  # caller -> stream -> counted until (ms)

    def open(self, caller: str, stream: str, now_ms: int, ttl_ms: int, cap: int) -> bool:
        held = {s: t for s, t in self._open.get(caller, {}).items() if t > now_ms}
        self._open[caller] = held
        if len(held) >= cap:
            return False
        held[stream] = now_ms + ttl_ms
        return True

    def refresh(
        self, caller: str, stream: str, until_ms: int, ttl_ms: int, token: str | None
    ) -> bool:
        held = self._open.get(caller, {})
        if stream in held:
            held[stream] = until_ms
        return token is None or self.token_exists(token)

    def close(self, caller: str, stream: str) -> None:
        self._open.get(caller, {}).pop(stream, None)

    def held(self, caller: str, now_ms: int) -> int:
        """How many streams `caller` holds open at `now_ms` (what the recipients' read
        counts of a player's in Redis)."""
        return sum(1 for t in self._open.get(caller, {}).values() if t > now_ms)

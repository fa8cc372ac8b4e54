"""The signing keys' leaves in memory (stores.key_history.RedisKeyHistory's twin)."""

from __future__ import annotations


class MemoryKeyHistory:
    def __init__(self) -> None:
        self._leaves: dict[str, int] = {}
        self._last: str | None = None

    def last_logged(self) -> str | None:
        return self._last

    def logged(self, key_id: str, index: int) -> None:
        self._leaves[key_id], self._last = index, key_id

    def leaves(self) -> dict[str, int]:
        return dict(self._leaves)

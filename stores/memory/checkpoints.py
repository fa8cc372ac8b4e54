"""The witnesses' cosigned checkpoints in memory (stores.checkpoints.RedisCheckpoints's
twin)."""

from __future__ import annotations


class MemoryCheckpoints:
    def __init__(self) -> None:
        self._notes: dict[str, str] = {}

    def cosigned(self, witness: str) -> str | None:
        return self._notes.get(witness)

    def every_cosigned(self) -> list[str]:
        return list(self._notes.values())

    def keep_cosigned(self, witness: str, text: str) -> None:
        self._notes[witness] = text

"""Follow-up writes in memory. An append's follow-up writes (events.recording.Writes: the
players' notes, their planning, their games) are only listed by the in-memory recorder
(`MemoryRecorder.writes`); a twin that keeps what they write follows that list, applying
the commands it has not seen before each read, so it holds what Redis would."""

from __future__ import annotations

from typing import Any

Command = tuple[Any, ...]


class Following:
    def __init__(self, follow: list[Command] | None = None) -> None:
        """`follow`: the list of commands to follow (the recorder's), else one of its own."""
        self.follow: list[Command] = follow if follow is not None else []
        self._seen = 0

    def sync(self) -> None:
        """Apply the commands written since the last look."""
        while self._seen < len(self.follow):
            self._seen += 1
            self.apply(self.follow[self._seen - 1])

    def apply(self, command: Command) -> None:
        """Keep what `command` writes (a subclass's keys only; others are skipped)."""
        raise NotImplementedError

"""The public log of games in memory (events.tlog.PublicLog's twin), for the unit tier.

Leaves appended by games' appends arrive as the appends' follow-up writes (`Writes.tlog`);
the in-memory recorder only lists those (`MemoryRecorder.writes`): given that list
(`follow`), this log takes in its `TLOG` commands before every read, in order, as Redis
runs them inside the append. One process, one thread: nothing here is shared.
"""

from __future__ import annotations

import json
from typing import Any

from events import merkle


class MemoryPublicLog:
    def __init__(self, follow: list[tuple[Any, ...]] | None = None) -> None:
        self._hashes: list[bytes] = []
        self._texts: list[str] = []
        self._ids: dict[str, int] = {}
        self._alarms: dict[str, str] = {}
        self._head: str | None = None
        self._follow, self._seen = follow, 0
        self.tree = merkle.Tree(self._read)

    def _sync(self) -> None:
        if self._follow is None:
            return
        commands, self._seen = self._follow[self._seen :], len(self._follow)
        for command in commands:
            if command[0] == "TLOG":
                self._add(command[4], command[6])

    def _add(self, leaf_id: str, text: str) -> int:
        if leaf_id not in self._ids:
            self._hashes.append(merkle.leaf_hash(text.encode()))
            self._texts.append(text)
            self._ids[leaf_id] = len(self._texts) - 1
        return self._ids[leaf_id]

    def append(self, leaf_id: str, text: str) -> int:
        self._sync()
        return self._add(leaf_id, text)

    def head(self) -> dict[str, Any] | None:
        return None if self._head is None else json.loads(self._head)

    def keep_head(self, head: dict[str, Any]) -> None:
        self._head = json.dumps(head)

    def size(self) -> int:
        self._sync()
        return len(self._hashes)

    def indexes(self, leaf_ids: list[str]) -> list[int | None]:
        self._sync()
        return [self._ids.get(i) for i in leaf_ids]

    def indexed(self) -> tuple[int, int]:
        self._sync()
        return len(self._hashes), len(self._ids)

    def restore(self, leaf_id: str, index: int) -> bool:
        if leaf_id in self._ids:
            return False
        self._ids[leaf_id] = index
        return True

    def alarm(self, leaf_id: str, index: int, at: str, what: str) -> None:
        self._alarms.setdefault(leaf_id, json.dumps({"index": index, "at": at, "alarm": what}))

    def alarms(self) -> int:
        return len(self._alarms)

    def alarmed(self, leaf_ids: list[str]) -> list[bool]:
        return [i in self._alarms for i in leaf_ids]

    def past_end(self) -> list[tuple[str, int]]:
        size = self.size()
        out = [(leaf_id, index) for leaf_id, index in self._ids.items() if index >= size]
        for leaf_id, _ in out:
            del self._ids[leaf_id]
        return out

    def texts(self, start: int, end: int) -> list[str]:
        self._sync()
        return self._texts[start:end] if end > start else []

    def _read(self, start: int, end: int) -> list[bytes]:
        self._sync()
        if end > len(self._hashes):
            raise ValueError(f"the log holds fewer than {end} leaves")
        return self._hashes[start:end]

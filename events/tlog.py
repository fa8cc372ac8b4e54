"""The public log of games in Redis: an append-only list of leaves and its Merkle tree.

What a leaf says is events/transparency.py's; the tree is events/merkle.py's (RFC 9162).
Each leaf has an id, `<game>:<kind>`, logged at most once: appending it again returns the
index it already has, so a write retried or repaired by a sweep never logs a fact twice.
Every key carries the hash tag `{tlog}` (one slot on a cluster). Each process keeps the
hashes of the complete subtrees it has computed (they never change), so a root or a
proof reads only the tail of the log.
"""

from __future__ import annotations

import json
from typing import Any

from events import merkle, scripts, tlog_keys


class PublicLog:
    def __init__(self, client: Any) -> None:
        self.redis = client
        self._append = client.register_script(scripts.TLOG_APPEND)
        self.tree = merkle.Tree(self._hashes)

    def append(self, leaf_id: str, text: str) -> int:
        """Log a leaf (once per id); return its index."""
        data = text.encode()
        ids = [tlog_keys.tlog_hashes(), tlog_keys.tlog_texts(), tlog_keys.tlog_ids()]
        return int(self._append(keys=ids, args=[leaf_id, merkle.leaf_hash(data), data]))

    def head(self) -> dict[str, Any] | None:
        """The signed tree head kept last (service/transparency.py signs them)."""
        raw = self.redis.get(tlog_keys.tlog_head())
        return json.loads(raw) if raw else None

    def keep_head(self, head: dict[str, Any]) -> None:
        self.redis.set(tlog_keys.tlog_head(), json.dumps(head))

    def size(self) -> int:
        return int(self.redis.llen(tlog_keys.tlog_hashes()))

    def indexes(self, leaf_ids: list[str]) -> list[int | None]:
        """Where each leaf id lies, or None if it is not logged."""
        if not leaf_ids:
            return []
        found = self.redis.hmget(tlog_keys.tlog_ids(), leaf_ids)
        return [None if i is None else int(i) for i in found]

    def indexed(self) -> tuple[int, int]:
        """The log's size and how many leaves its id index names (equal unless entries of
        the index were lost). The size is read first: a leaf appended in between (one
        script adds its hash and its id) can only make the second figure larger."""
        size = self.size()
        return size, int(self.redis.hlen(tlog_keys.tlog_ids()))

    def restore(self, leaf_id: str, index: int) -> bool:
        """Name leaf `index` as `leaf_id` again in the index, if the id is not there."""
        return bool(self.redis.hsetnx(tlog_keys.tlog_ids(), leaf_id, index))

    def alarm(self, leaf_id: str, index: int, at: str, what: str) -> None:
        """Record an alarm about `leaf_id` (tlog_keys.tlog_alarms): `lost` from the index, or
        `cut` from the log (its index lay past the log's end)."""
        record = json.dumps({"index": index, "at": at, "alarm": what})
        self.redis.hsetnx(tlog_keys.tlog_alarms(), leaf_id, record)

    def alarms(self) -> int:
        return int(self.redis.hlen(tlog_keys.tlog_alarms()))

    def alarmed(self, leaf_ids: list[str]) -> list[bool]:
        """Whether each leaf id has an alarm (such a leaf is never logged again)."""
        if not leaf_ids:
            return []
        return [x is not None for x in self.redis.hmget(tlog_keys.tlog_alarms(), leaf_ids)]

    def past_end(self) -> list[tuple[str, int]]:
        """The index's entries that lie past the log's end (the log was cut back), removed
        from the index. The size is read after each entry: a leaf appended meanwhile is
        in the log before its id is in the index."""
        out = []
        for leaf_id, index in self.redis.hscan_iter(tlog_keys.tlog_ids(), count=1000):
            if int(index) >= self.size() and self.redis.hdel(tlog_keys.tlog_ids(), leaf_id):
                out.append((leaf_id.decode(), int(index)))
        return out

    def texts(self, start: int, end: int) -> list[str]:
        """The leaves [start, end) as text."""
        if end <= start:
            return []
        return [t.decode() for t in self.redis.lrange(tlog_keys.tlog_texts(), start, end - 1)]

    def _hashes(self, start: int, end: int) -> list[bytes]:
        found = self.redis.lrange(tlog_keys.tlog_hashes(), start, end - 1)
        if len(found) != end - start:
            raise ValueError(f"the log holds fewer than {end} leaves")
        return found

"""The event store: one Redis stream per game, appended atomically, loaded from snapshots."""

from __future__ import annotations

import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import redis
from redis.cluster import RedisCluster

from events import codec, keys, scripts
from events.record import Record, fold_all
from events.snapshot import decode as decode_snapshot
from events.snapshot import encode as encode_snapshot

logger = logging.getLogger(__name__)


class StaleVersion(Exception):
    """The stream moved on since the caller loaded it."""

    def __init__(self, expected: int, actual: int):
        super().__init__(f"expected version {expected}, the game is at {actual}")
        self.expected = expected
        self.actual = actual


class Duplicate(Exception):
    """The idempotency key was used before; `stored` is the first call's result."""

    def __init__(self, stored: str):
        super().__init__("idempotency key already used")
        self.stored = stored


Held = tuple[Record, bytes]  # a record and its last entry as stored


class Writes:
    """Commands that follow an append (the deadline index, players' inboxes), recorded
    with the names and arguments of a redis-py pipeline's. On one Redis the append's
    script runs them (atomic with it, no round trip of their own, one fsync); on a
    cluster, whose other slots a script cannot touch, a pipeline sends them after it."""

    def __init__(self) -> None:
        self.commands: list[tuple[Any, ...]] = []

    def __len__(self) -> int:
        return len(self.commands)

    def zadd(self, key: str, mapping: dict[str, float]) -> None:
        for member, score in mapping.items():
            self.commands.append(("ZADD", key, repr(float(score)), member))

    def zrem(self, key: str, *members: str) -> None:
        self.commands.append(("ZREM", key, *members))

    def hincrby(self, key: str, field: str, amount: int = 1) -> None:
        self.commands.append(("HINCRBY", key, field, amount))

    def xadd(
        self, key: str, fields: dict[str, str], maxlen: int | None = None, approximate=True
    ) -> None:
        limit = ("MAXLEN", "~" if approximate else "=", maxlen) if maxlen else ()
        pairs = [x for kv in fields.items() for x in kv]
        self.commands.append(("XADD", key, *limit, "*", *pairs))


@dataclass
class Loaded:
    record: Record
    seed: bytes | None
    idem: str | None  # the stored result of this idempotency key, if it was used


class EventStore:
    """Reads and writes games' event streams on one Redis."""

    def __init__(self, client: redis.Redis, snapshot_every: int = 50, held_games: int = 256):
        self.redis = client
        # the newest record this process has seen of each recent game, with its last
        # entry as stored: a load then reads only the entries after it (no snapshot)
        self._held: OrderedDict[str, Held] = OrderedDict()
        self.held_games = held_games
        self.cluster = isinstance(client, RedisCluster)
        self.snapshot_every = snapshot_every
        self._load = client.register_script(scripts.LOAD)
        self._append = client.register_script(scripts.APPEND)
        self._save = client.register_script(scripts.SAVE_SNAPSHOT)

    def exists(self, game_id: str) -> bool:
        """Return True if the game has a stream."""
        return bool(self.redis.exists(keys.game_events(game_id)))

    def load_call(self, game_id: str, idem: str = "") -> tuple[str, list[Any], Held | None]:
        """Return the load script's digest, its EVALSHA arguments (numkeys, keys, args) and
        the record this process holds of the game, for a caller that sends the script in a
        pipeline with other commands; `loaded` reads the reply."""
        names = [
            keys.game_events(game_id),
            keys.game_snapshot(game_id),
            keys.game_idem(game_id),
            keys.game_seed(game_id),
        ]
        held = self._held.get(game_id)
        return self._load.sha, [len(names), *names, idem, held[0].version if held else 0], held

    def load(self, game_id: str, idem: str = "") -> Loaded:
        """Return the game's record (snapshot + tail), its seed and an idempotent result."""
        _, (_, *names, idem, have), held = self.load_call(game_id, idem)
        return self.loaded(game_id, self._load(keys=names, args=[idem, have]), held, idem)

    def loaded(
        self, game_id: str, reply: list[Any], held: Held | None = None, idem: str = ""
    ) -> Loaded:
        """Return what the load script's `reply` says of the game; `held` is the record
        the call named (from `load_call`)."""
        blob, version, stored, seed, tail, at = reply
        version, base = int(version), (at[0][1][1] if at else None)  # fields [b"e", entry]
        save = False
        if not blob and version > 0:  # the tail follows the record held
            if held is None or held[0].version != version or held[1] != base:
                self._held.pop(game_id, None)  # not this log's record: load afresh
                return self.load(game_id, idem)
            record = held[0]
        else:
            record = _decode(blob, version) if blob else None
            if record is None:
                record = Record(game_id)
                if blob:  # an unreadable snapshot: refold from the start
                    tail = [
                        [i, [b"e", f[b"e"]]]
                        for i, f in self.redis.xrange(keys.game_events(game_id))
                    ]
            save = len(tail) >= self.snapshot_every
        envelopes = [codec.loads(fields[1]) for _, fields in tail]  # fields: [b"e", payload]
        record = fold_all(record, envelopes)
        if save:
            self.save_snapshot(record)
        self.hold(record, tail[-1][1][1] if tail else base)
        return Loaded(record, seed, stored.decode() if stored else None)

    def forget(self) -> None:
        """Drop the records this process holds (the next loads read snapshots again)."""
        self._held.clear()

    def hold(self, record: Record, last: bytes | None) -> None:
        """Keep `record` (whose last entry is stored as `last`) as this process's newest of
        its game, so that the next load reads only what follows it."""
        if last is None or record.version == 0:
            return
        held = self._held.pop(record.game_id, None)
        if held is None or held[0].version <= record.version:
            held = (record, last)
        self._held[record.game_id] = held
        while len(self._held) > self.held_games:
            self._held.popitem(last=False)

    def read(self, game_id: str, after: int = 0, count: int | None = None) -> list[dict[str, Any]]:
        """Return the envelopes with seq > `after`, oldest first."""
        entries = self.redis.xrange(keys.game_events(game_id), f"{after + 1}-0", "+", count=count)
        return [codec.loads(fields[b"e"]) for _, fields in entries]

    def read_stream(self, stream: str, after: int = 0) -> list[dict[str, Any]]:
        """Return the envelopes of any log (e.g. a league's) with seq > `after`."""
        entries = self.redis.xrange(stream, f"{after + 1}-0", "+")
        return [codec.loads(fields[b"e"]) for _, fields in entries]

    def append(
        self,
        game_id: str,
        envelopes: list[dict[str, Any]],
        expected: int,
        idem: str = "",
        result: str = "",
        snapshot: Record | None = None,
        keep_idem_s: int = 0,
        owed: str = "",
        then: Writes | None = None,
        record: Record | None = None,
    ) -> int:
        """Append all `envelopes` after version `expected`, or none; return the new version.

        `snapshot`, the record folded through these events, is stored in the same step;
        with `keep_idem_s` the game's idempotency records expire that many seconds later;
        `owed` (JSON: who owes what after them) is kept beside the last entry as field `o`;
        the writes `then` follow a successful append (in its script on one Redis);
        `record` (folded through the events) becomes the one this process holds.
        """
        stream_keys = (
            keys.game_events(game_id),
            keys.game_idem(game_id),
            keys.game_snapshot(game_id),
        )
        blob = snapshot_blob(snapshot) if snapshot else b""
        return self.append_to(
            stream_keys, envelopes, expected, idem, result, blob, keep_idem_s, owed, then, record
        )

    def append_to(
        self,
        stream_keys: tuple[str, str, str],
        envelopes: list[dict[str, Any]],
        expected: int,
        idem: str = "",
        result: str = "",
        snapshot: bytes = b"",
        keep_idem_s: int = 0,
        owed: str = "",
        then: Writes | None = None,
        record: Record | None = None,
    ) -> int:
        """Append to any log kept like a game's: (events stream, idempotency hash, snapshot
        hash) sharing one hash tag, e.g. a league's. Same checks and answers as `append`."""
        encoded = [codec.dumps(e) for e in envelopes]
        inside = [] if self.cluster or not then else then.commands
        words = [w for command in inside for w in (len(command), *command)]
        status, value = self._append(
            keys=[*stream_keys, *{command[1] for command in inside}],
            args=[
                expected,
                idem,
                result,
                snapshot,
                keep_idem_s,
                owed,
                len(inside),
                *words,
                *encoded,
            ],
        )
        if status == b"duplicate":
            raise Duplicate(value.decode())
        if status == b"conflict":
            raise StaleVersion(expected, int(value))
        if then and not inside:
            pipe = self.redis.pipeline(transaction=False)
            for command in then.commands:
                pipe.execute_command(*command)
            pipe.execute()
        if record is not None and encoded:
            self.hold(record, encoded[-1])
        return int(value)

    def save_snapshot(self, record: Record) -> None:
        """Store `record` as the game's snapshot unless a newer one is there."""
        self._save(
            keys=[keys.game_snapshot(record.game_id)], args=[record.version, snapshot_blob(record)]
        )


def snapshot_blob(record: Record) -> bytes:
    """Return the stored form of `record`: data-only JSON (events.snapshot), never pickle."""
    return encode_snapshot(record)


def _decode(blob: bytes, version: int) -> Record | None:
    try:
        return decode_snapshot(blob, version)
    except Exception:  # a snapshot is a cache: any trouble means refold
        logger.warning("unreadable snapshot at version %s; refolding", version)
        return None

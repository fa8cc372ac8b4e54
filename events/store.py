"""The event store: one Redis stream per game, appended atomically, loaded from snapshots."""

from __future__ import annotations

import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import redis
from redis.cluster import RedisCluster

from events import codec, keys, round_trip, scripts
from events.record import Record, fold_all, in_order
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


class Recheck(Exception):
    """An admitted append's checks failed (the caller's token record changed, or the
    record this process holds is not of the game's log): nothing was counted or written."""


class OverLimit(Exception):
    """An admitted append's count is past its limit: nothing was written."""


Held = tuple[Record, bytes]  # a record and its last entry as stored
MAX_UNPACKED = 4000  # arguments an admitted append passes on (Lua's unpack stops near 8000)


@dataclass
class Admission:
    """What an append checks and counts for a caller admitted without a round trip of
    its own (api.limits): `check_key` must still hold `check_value` (the caller's token
    record), and the caller's counter `count_key` is counted within `window_ms` and
    refused past `limit` calls, in the append's script. `calls` and `left_ms` are the
    count after it. On one Redis only (these keys lie outside the game's slot)."""

    check_key: str
    check_value: bytes
    count_key: str
    window_ms: int
    limit: int
    calls: int = 0
    left_ms: int = 0


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
        self._seeds: dict[str, bytes] = {}  # the seeds of the games held
        self.held_games = held_games
        self.cluster = isinstance(client, RedisCluster)
        self.snapshot_every = snapshot_every
        self._load = client.register_script(scripts.LOAD)
        self._append = client.register_script(scripts.APPEND)
        self._admitted = client.register_script(scripts.APPEND_ADMITTED)
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
            keys.game_private(game_id),
        ]
        held = self._held.get(game_id)
        have = (held[0].version, held[0].private) if held else (0, 0)
        return self._load.sha, [len(names), *names, idem, *have], held

    def load(self, game_id: str, idem: str = "") -> Loaded:
        """Return the game's record (snapshot + tail), its seed and an idempotent result."""
        _, (_, *names, idem, have, steps), held = self.load_call(game_id, idem)
        reply = self._run(self._load, names, [idem, have, steps])
        return self.loaded(game_id, reply, held, idem)

    def loaded(
        self, game_id: str, reply: list[Any], held: Held | None = None, idem: str = ""
    ) -> Loaded:
        """Return what the load script's `reply` says of the game; `held` is the record
        the call named (from `load_call`)."""
        blob, version, stored, seed, tail, at, steps, _ = (*reply, [], 0)[:8]
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
                    tail = _entries(self.redis.xrange(keys.game_events(game_id)))
                    steps = _entries(self.redis.xrange(keys.game_private(game_id)))
            save = len(tail) >= self.snapshot_every
        envelopes = [codec.loads(fields[1]) for _, fields in tail]  # fields: [b"e", payload]
        private = [codec.loads(fields[1]) for _, fields in steps]
        record = fold_all(record, in_order(envelopes, private) if private else envelopes)
        if save:
            self.save_snapshot(record)
        self.hold(record, tail[-1][1][1] if tail else base)
        if seed and game_id in self._held:
            self._seeds[game_id] = seed
        return Loaded(record, seed, stored.decode() if stored else None)

    def held(self, game_id: str) -> Loaded | None:
        """Return the game as this process holds it (the newest record it has seen, and
        the seed), without reading Redis; None if it holds none. It may be behind the
        log: an append at its version then finds the log moved on (StaleVersion)."""
        held, seed = self._held.get(game_id), self._seeds.get(game_id)
        return Loaded(held[0], seed, None) if held and seed else None

    def forget(self) -> None:
        """Drop the records this process holds (the next loads read snapshots again)."""
        self._held.clear()
        self._seeds.clear()

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
            self._seeds.pop(self._held.popitem(last=False)[0], None)

    def read(self, game_id: str, after: int = 0, count: int | None = None) -> list[dict[str, Any]]:
        """Return the envelopes with seq > `after`, oldest first."""
        entries = self.redis.xrange(keys.game_events(game_id), f"{after + 1}-0", "+", count=count)
        return [codec.loads(fields[b"e"]) for _, fields in entries]

    def read_private(self, game_id: str, after: int = 0, upto: int | None = None):
        """Return the game's private steps numbered above `after` (up to `upto`): for its
        parties' answers and, once the game is over, for everyone (never for others while
        it runs: docs/architecture.md, "Private steps")."""
        last = "+" if upto is None else f"{upto}-0"
        entries = self.redis.xrange(keys.game_private(game_id), f"{after + 1}-0", last)
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
        admission: Admission | None = None,
    ) -> int:
        """Append all `envelopes` after version `expected`, or none; return the new version.

        `snapshot`, the record folded through these events, is stored in the same step;
        with `keep_idem_s` the game's idempotency records expire that many seconds later;
        `owed` (JSON: who owes what after them) is kept beside the last entry as field `o`;
        the writes `then` follow a successful append (in its script on one Redis);
        `record` (folded through the events) becomes the one this process holds.
        With an `admission` (one Redis only) the script first checks and counts it, and
        its entry at `expected` must be the one this process holds: else Recheck, or
        OverLimit past the count's limit, with nothing written.
        """
        stream_keys = (
            keys.game_events(game_id),
            keys.game_idem(game_id),
            keys.game_snapshot(game_id),
            keys.game_private(game_id),
        )
        blob = snapshot_blob(snapshot) if snapshot else b""
        admit = None
        held = self._held.get(game_id)
        if admission is not None:
            if self.cluster or held is None or held[0].version != expected:
                raise Recheck()
            admit = (admission, held[1])
        # public events first, then the private steps (each kept in its own stream); the
        # private steps already logged are checked as the version is
        public = [e for e in envelopes if "private" not in e]
        steps = [e for e in envelopes if "private" in e]
        before = steps[0]["private"] - 1 if steps else (record.private if record else 0)
        last_public = held[1] if held and held[0].version == expected else None
        return self.append_to(
            stream_keys,
            [*public, *steps],
            f"{expected}:{before}:{len(steps)}",
            idem,
            result,
            blob,
            keep_idem_s,
            owed,
            then,
            record,
            admit,
            last_public,
        )

    def append_to(
        self,
        stream_keys: tuple[str, str, str],
        envelopes: list[dict[str, Any]],
        expected: int | str,
        idem: str = "",
        result: str = "",
        snapshot: bytes = b"",
        keep_idem_s: int = 0,
        owed: str = "",
        then: Writes | None = None,
        record: Record | None = None,
        admit: tuple[Admission, bytes] | None = None,
        last_public: bytes | None = None,
    ) -> int:
        """Append to any log kept like a game's: (events stream, idempotency hash, snapshot
        hash) sharing one hash tag, e.g. a league's. Same checks and answers as `append`
        (`admit`: its admission and the entry held at `expected`; `last_public`: the events
        stream's last entry when every envelope is a private step)."""
        encoded = [codec.dumps(e) for e in envelopes]
        inside = [] if self.cluster or not then else then.commands
        words = [w for command in inside for w in (len(command), *command)]
        names = [*stream_keys, *{command[1] for command in inside}]
        args = [expected, idem, result, snapshot, keep_idem_s, owed, len(inside), *words, *encoded]
        if admit is None:
            status, value = self._run(self._append, names, args)
        else:
            status, value = self._admitted_append(*admit, names, args)
        if status == b"duplicate":
            raise Duplicate(value.decode())
        if status == b"conflict":
            raise StaleVersion(int(str(expected).split(":")[0]), int(value))
        if then and not inside:
            pipe = self.redis.pipeline(transaction=False)
            for command in then.commands:
                pipe.execute_command(*command)
            pipe.execute()
        if record is not None and encoded:
            steps = sum(1 for e in envelopes if "private" in e)  # last: not the events stream
            last = encoded[-1 - steps] if steps < len(encoded) else last_public
            self.hold(record, last)
        return int(value)

    def _admitted_append(
        self, admission: Admission, base: bytes, names: list[Any], args: list[Any]
    ) -> tuple[bytes, Any]:
        """Run APPEND_ADMITTED; return APPEND's (status, value) after the admission's."""
        if len(args) > MAX_UNPACKED:
            raise Recheck()  # past what the script can unpack: the plain path takes it
        a = admission
        reply = self._run(
            self._admitted,
            [a.check_key, a.count_key, *names],
            [a.check_value, a.window_ms, a.limit, base, *args],
        )
        if reply[0] == b"recheck":
            raise Recheck()
        a.calls, a.left_ms = int(reply[-2]), int(reply[-1])
        if reply[0] == b"limited":
            raise OverLimit()
        return reply[0], reply[1]

    def _run(self, registered: Any, keys: list[Any], args: list[Any]) -> Any:
        """Run one of the store's scripts: in one round trip on one Redis, through
        redis-py's cluster client (which routes it by its keys) on a cluster."""
        if self.cluster:
            return registered(keys=keys, args=args)
        return round_trip.script(self.redis, registered, keys, args)

    def save_snapshot(self, record: Record) -> None:
        """Store `record` as the game's snapshot unless a newer one is there."""
        args = [record.version, snapshot_blob(record), record.private]
        self._save(keys=[keys.game_snapshot(record.game_id)], args=args)


def snapshot_blob(record: Record) -> bytes:
    """Return the stored form of `record`: data-only JSON (events.snapshot), never pickle."""
    return encode_snapshot(record)


def _entries(entries: list[Any]) -> list[Any]:
    """Return XRANGE's entries in the load script's form: [id, [b"e", payload]]."""
    return [[i, [b"e", f[b"e"]]] for i, f in entries]


def _decode(blob: bytes, version: int) -> Record | None:
    try:
        return decode_snapshot(blob, version)
    except Exception:  # a snapshot is a cache: any trouble means refold
        logger.warning("unreadable snapshot at version %s; refolding", version)
        return None

"""The recorder: appends envelopes to a log and reads them back, on one Redis (or a
cluster). It knows logs, versions, idempotency keys and snapshots as bytes; it folds
nothing and holds nothing (that is `events.repository`). `events.memory_recorder` keeps
the same contract in memory, for tests of the service without Redis
(tests/events/test_recorder_contract.py runs both).

A log is kept as one stream of entries (seq = version), an idempotency hash, a snapshot
hash and, for a game, its seed, under keys that share one hash tag (`Log`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import redis
from redis.cluster import RedisCluster

from events import codec, keys, merkle, replication, round_trip, scripts
from events.refusals import Duplicate, GuardFailed, GuardRefused, StaleVersion
from events.replication import NotReplicated, Sync

MAX_UNPACKED = 4000  # arguments a guarded append passes on (Lua's unpack stops near 8000)


@dataclass(frozen=True)
class Log:
    """The keys of one log: its entries, idempotency records, snapshot and (a game's) seed."""

    events: str
    idem: str
    snapshot: str
    seed: str = ""
    private: str = ""  # a game's private log (docs/architecture.md, "Private steps")

    @classmethod
    def game(cls, game_id: str) -> Log:
        return cls(
            keys.game_events(game_id),
            keys.game_idem(game_id),
            keys.game_snapshot(game_id),
            keys.game_seed(game_id),
            keys.game_private(game_id),
        )

    @classmethod
    def league(cls, league_id: str) -> Log:
        return cls(
            keys.league_events(league_id),
            keys.league_idem(league_id),
            keys.league_snapshot(league_id),
        )


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

    def set(self, key: str, value: str, ex: int | None = None) -> None:
        self.commands.append(("SET", key, value, *(("EX", int(ex)) if ex else ())))

    def tlog(self, leaf_id: str, text: str) -> None:
        """Append a leaf to the public log of games once per id (scripts.TLOG_APPEND)."""
        names = (keys.tlog_hashes(), keys.tlog_texts(), keys.tlog_ids())
        self.commands.append(("TLOG", *names, leaf_id, merkle.leaf_hash(text.encode()), text))

    def xadd(
        self, key: str, fields: dict[str, str], maxlen: int | None = None, approximate=True
    ) -> None:
        limit = ("MAXLEN", "~" if approximate else "=", maxlen) if maxlen else ()
        pairs = [x for kv in fields.items() for x in kv]
        self.commands.append(("XADD", key, *limit, "*", *pairs))


class Guard(Protocol):
    """Checks and a count that a guarded append's script runs before it writes, decided
    by the caller (service.admission): the recorder passes its keys and arguments to the
    script `script` (one of events.scripts) and hands back the figures it reports,
    without knowing what they mean. One Redis only (its keys lie outside the log's slot).
    """

    script: str

    def keys(self) -> list[str]: ...

    def args(self) -> list[Any]: ...

    def report(self, figures: list[Any]) -> None: ...


@dataclass
class Append:
    """One append: all `envelopes` after version `expected`, or none.

    `idem` (with `result` stored under it) refuses a second append with the same key;
    `snapshot`, the stored record after these events, is kept in the same step;
    `keep_idem_s` makes the idempotency records expire that many seconds later; `owed`
    (JSON: who owes what after them) is stored beside the last entry as field `o`; the
    writes `then` follow the append (in its script on one Redis). With a `guard`, the
    script first runs the guard's checks and requires the entry at `expected` to be
    `at_expected` (what the caller decided on). Envelopes with `private` go to the log's
    private stream (ids: their number), the others to its events; `private` is how many
    private steps must be logged already (checked as `expected` is)."""

    log: Log
    envelopes: list[dict[str, Any]]
    expected: int
    idem: str = ""
    result: str = ""
    snapshot: bytes = b""
    keep_idem_s: int = 0
    owed: str = ""
    then: Writes | None = None
    guard: Guard | None = None
    at_expected: bytes = b""
    private: int = 0

    def split(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """Return the public envelopes and the private steps, each in order."""
        return (
            [e for e in self.envelopes if "private" not in e],
            [e for e in self.envelopes if "private" in e],
        )


@dataclass
class Appended:
    version: int  # the log's version after the append
    last: bytes  # the last entry of the events stream as stored (b"" if none was added)


@dataclass
class Stored:
    """A log as read for a load: the snapshot (blob and version, or none), the result of
    an idempotency key, the seed, the entries after the snapshot (or after the version
    the caller holds), and the entry at the version they follow."""

    blob: bytes | None
    version: int
    result: str | None
    seed: bytes | None
    tail: list[bytes] = field(default_factory=list)
    at: bytes | None = None
    private: list[bytes] = field(default_factory=list)  # private steps after those held
    private_base: int = 0  # how many private steps the snapshot (or the record held) has


class Recorder(Protocol):
    """What the repository and the service need of a log's storage."""

    guards: bool  # whether guarded appends can run here (one Redis only)

    def append(self, request: Append) -> Appended: ...

    def load(self, log: Log, idem: str = "", have: int = 0, steps: int = 0) -> Stored: ...

    def entries(self, stream: str, after: int = 0, count: int | None = None) -> list[bytes]: ...

    def read(
        self, stream: str, after: int = 0, count: int | None = None
    ) -> list[dict[str, Any]]: ...

    def exists(self, stream: str) -> bool: ...

    def save_snapshot(self, log: Log, version: int, blob: bytes, private: int = 0) -> None: ...

    def keep_seed(self, log: Log, seed: bytes) -> bytes: ...

    def write(self, writes: Writes) -> None: ...


class RedisRecorder:
    """The recorder on one Redis, or on a cluster (then with no guarded appends). With a
    `sync` (events.replication), an append returns only once that many replicas have it,
    and raises NotReplicated after writing when fewer confirm in time."""

    def __init__(self, client: redis.Redis, sync: Sync | None = None):
        self.redis = client
        self.cluster = isinstance(client, RedisCluster)
        self.guards = not self.cluster
        self.sync = sync or Sync()
        self._scripts: dict[str, Any] = {}  # events.scripts.registered, looked up once

    def _script(self, text: str) -> Any:
        found = self._scripts.get(text)
        if found is None:
            found = self._scripts[text] = scripts.registered(self.redis, text)
        return found

    # --- reading

    def load_command(
        self, log: Log, idem: str = "", have: int = 0, steps: int = 0
    ) -> tuple[Any, ...]:
        """The load's EVALSHA command, for a caller that sends it in one round trip with
        other commands; `stored` reads its reply."""
        names = _load_keys(log)
        return ("EVALSHA", scripts.sha(scripts.LOAD), len(names), *names, idem, have, steps)

    def load(self, log: Log, idem: str = "", have: int = 0, steps: int = 0) -> Stored:
        """Read the log for a load: from `have` (a version the caller holds, if still in
        the stream, and the `steps` private steps it holds) or from the snapshot. A
        result found for `idem` is returned only once the replicas have it (`confirm`)."""
        found = self.stored(self._run(scripts.LOAD, _load_keys(log), [idem, have, steps]))
        if found.result is not None and self.sync:
            self.confirm(log, idem)
        return found

    def confirm(self, log: Log, idem: str) -> None:
        """Return once the replicas (`sync`) hold the write that stored `idem`'s result,
        else raise NotReplicated (events.replication: the result is written again,
        unchanged, and waited for)."""
        script = self._script(scripts.CONFIRM)
        _, unconfirmed = replication.send(self.redis, script, [log.idem], [idem], self.sync)
        if unconfirmed is not None:
            raise unconfirmed

    @staticmethod
    def stored(reply: list[Any]) -> Stored:
        """Return what the load script's `reply` says of the log."""
        blob, version, result, seed, tail, at, private, base = reply
        return Stored(
            blob or None,
            int(version),
            result.decode() if result else None,
            seed or None,
            [fields[1] for _, fields in tail],  # fields: [b"e", payload, (b"o", owed)]
            at[0][1][1] if at else None,
            [fields[1] for _, fields in private],
            int(base),
        )

    def entries(self, stream: str, after: int = 0, count: int | None = None) -> list[bytes]:
        """Return the stored entries with seq > `after`, oldest first."""
        found = self.redis.xrange(stream, f"{after + 1}-0", "+", count=count)
        return [fields[b"e"] for _, fields in found]

    def read(self, stream: str, after: int = 0, count: int | None = None) -> list[dict[str, Any]]:
        """Return the envelopes with seq > `after`, oldest first."""
        return [codec.loads(e) for e in self.entries(stream, after, count)]

    def exists(self, stream: str) -> bool:
        return bool(self.redis.exists(stream))

    # --- writing

    def keep_seed(self, log: Log, seed: bytes) -> bytes:
        """Store the log's seed unless it has one; return the one kept."""
        if self.redis.set(log.seed, seed, nx=True):
            return seed
        return self.redis.get(log.seed)

    def save_snapshot(self, log: Log, version: int, blob: bytes, private: int = 0) -> None:
        """Store `blob` as the log's snapshot at `version` (holding `private` private
        steps) unless a newer one is there."""
        self._script(scripts.SAVE_SNAPSHOT)(keys=[log.snapshot], args=[version, blob, private])

    def write(self, writes: Writes) -> None:
        """Run an append's follow-up writes after it (a cluster's, whose keys lie on other
        masters); with a `sync`, each master's writes are waited for as the append is
        (NotReplicated if too few replicas confirm them)."""
        if self.cluster and self.sync:
            tlog = scripts.sha(scripts.TLOG_APPEND)
            keyed = [
                (c[1], ("EVALSHA", tlog, 3, *c[1:]) if c[0] == "TLOG" else c)
                for c in writes.commands
            ]
            texts = {tlog: scripts.TLOG_APPEND}
            unconfirmed = replication.spread(self.redis, keyed, texts, self.sync)
            if unconfirmed is not None:
                raise unconfirmed
            return
        pipe = self.redis.pipeline(transaction=False)
        leaves = [c for c in writes.commands if c[0] == "TLOG"]
        for command in writes.commands:
            if command[0] != "TLOG":
                pipe.execute_command(*command)
        pipe.execute()
        for command in leaves:  # their keys share one slot of their own: a script each
            self._run(scripts.TLOG_APPEND, list(command[1:4]), list(command[4:]))

    def append(self, request: Append) -> Appended:
        """Append `request.envelopes` (see `Append`): raise StaleVersion if the log is not
        at `expected`, Duplicate if the idempotency key was used, GuardFailed or
        GuardRefused if the guard says so; nothing is written then."""
        q = request
        public, steps = q.split()
        encoded = [codec.dumps(e) for e in public]
        inside = [] if self.cluster or not q.then else q.then.commands
        words = [w for command in inside for w in (len(command), *command)]
        names = [q.log.events, q.log.idem, q.log.snapshot]
        expected: int | str = q.expected
        if q.log.private:  # both lengths checked; the private steps go last (scripts.APPEND)
            names.append(q.log.private)
            expected = f"{q.expected}:{q.private}:{len(steps)}"
        names += list(dict.fromkeys(k for command in inside for k in _keys_of(command)))
        args = [expected, q.idem, q.result, q.snapshot, q.keep_idem_s, q.owed, len(inside)]
        args += [*words, *encoded, *(codec.dumps(e) for e in steps)]
        if q.guard is None:
            (status, value), unconfirmed = self._write(scripts.APPEND, names, args)
        else:
            (status, value), unconfirmed = self._guarded(q.guard, q.at_expected, names, args)
        if status == b"duplicate":
            if self.sync:
                self.confirm(q.log, q.idem)
            raise Duplicate(value.decode())
        if status == b"conflict":
            raise StaleVersion(q.expected, int(value))
        if q.then and not inside:
            try:
                self.write(q.then)
            except NotReplicated as e:
                unconfirmed = unconfirmed or e
        if unconfirmed is not None:  # written, followed up, but not acknowledged
            raise unconfirmed
        return Appended(int(value), encoded[-1] if encoded else b"")

    def _guarded(
        self, guard: Guard, at: bytes, names: list[Any], args: list[Any]
    ) -> tuple[tuple[bytes, Any], NotReplicated | None]:
        """Run the guard's script; return APPEND's (status, value) after its figures, and
        the replicas' shortfall if any (`_write`)."""
        if not self.guards or len(args) > MAX_UNPACKED:
            raise GuardFailed()  # the caller takes the unguarded path
        guard_keys, guard_args = guard.keys(), guard.args()
        reply, unconfirmed = self._write(
            guard.script,
            [*guard_keys, *names],
            [*guard_args, at, *args],
        )
        if reply[0] == b"recheck":
            raise GuardFailed()
        if reply[0] == b"refused":
            guard.report(reply[1:])
            raise GuardRefused()
        guard.report(reply[2:])
        return (reply[0], reply[1]), unconfirmed

    def _write(
        self, text: str, keys: list[Any], args: list[Any]
    ) -> tuple[Any, NotReplicated | None]:
        """Run an appending script (`_run`), then, with a `sync`, wait for the replicas on
        the same connection: return its reply and the shortfall (None: confirmed)."""
        if not self.sync:
            return self._run(text, keys, args), None
        # the log's keys decide the node on a cluster (a guard's come first: one Redis)
        return replication.send(self.redis, self._script(text), keys, args, self.sync)

    def _run(self, text: str, keys: list[Any], args: list[Any]) -> Any:
        """Run script `text` (events.scripts): in one round trip on one Redis, through
        redis-py's cluster client (which routes it by its keys) on a cluster."""
        registered = self._script(text)
        if self.cluster:
            return registered(keys=keys, args=args)
        return round_trip.script(self.redis, registered, keys, args)


def _load_keys(log: Log) -> list[str]:
    """Return the load script's keys: a game's private stream last, when it has one."""
    names = [log.events, log.snapshot, log.idem, log.seed]
    return [*names, log.private] if log.private else names


def _keys_of(command: tuple[Any, ...]) -> tuple[Any, ...]:
    """The keys a follow-up write touches (declared to the append's script)."""
    return command[1:4] if command[0] == "TLOG" else command[1:2]

"""The recorder on Redis: appends envelopes to a log and reads them back, on one Redis (or
a cluster), as its port says (events.recording). It knows logs, versions, idempotency keys
and snapshots as bytes; it folds nothing and holds nothing (that is `events.repository`).
`events.memory_recorder` keeps the same contract in memory, for tests of the service
without Redis (tests/events/test_recorder_contract.py runs both).

A log is kept as one stream of entries (seq = version), an idempotency hash, a snapshot
hash and, for a game, its seed, under keys that share one hash tag (`Log`).
"""

from __future__ import annotations

from typing import Any

import redis
from redis.cluster import RedisCluster

from events import codec, replication, round_trip, scripts
from events.recording import Append, Appended, Guard, Log, Stored, Writes
from events.refusals import Duplicate, GuardFailed, GuardRefused, StaleVersion
from events.replication import NotReplicated, Sync

MAX_UNPACKED = 4000  # arguments a guarded append passes on (Lua's unpack stops near 8000)


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

"""A recorder in memory, for tests of the service that need no Redis (the unit tier).

It keeps the contract of events.recorder.RedisRecorder (tests/events/
test_recorder_contract.py runs the same tests on both): entries stored encoded, the
same version checks, idempotency results, snapshots and loads from a version held. It
runs guarded appends when given `guard`, the twin of the guards' scripts (what the
caller's own stores check and count, tests/support/memory_boot.py `admitted`); without
one, like a cluster, none (GuardFailed: the caller takes the usual path).
The follow-up writes of an append are kept in `writes`, in order, for a test to read.
One process, one thread: nothing here is shared.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from events import codec
from events.recording import Append, Appended, Guard, Log, Stored, Writes
from events.refusals import Duplicate, GuardFailed, GuardRefused, StaleVersion

# a guard's script in memory: None when its checks fail (recheck), else (within its
# limit, the figures it reports), having counted
GuardRun = Callable[[Guard], tuple[bool, list[Any]] | None]


@dataclass
class _Log:
    entries: list[bytes] = field(default_factory=list)
    owed: dict[int, str] = field(default_factory=dict)  # version -> field `o` beside it
    results: dict[str, str] = field(default_factory=dict)
    snapshot: tuple[int, bytes, int] = (0, b"", 0)  # version, blob, private steps held


class MemoryRecorder:
    def __init__(self, guard: GuardRun | None = None) -> None:
        self.run_guard = guard
        self.guards = guard is not None
        self._logs: dict[str, _Log] = {}
        self._seeds: dict[str, bytes] = {}
        self.writes: list[tuple[Any, ...]] = []  # every follow-up command, in order

    def _log(self, stream: str) -> _Log:
        return self._logs.setdefault(stream, _Log())

    def load(self, log: Log, idem: str = "", have: int = 0, steps: int = 0) -> Stored:
        kept = self._logs.get(log.events, _Log())
        result = kept.results.get(idem) if idem else None
        seed = self._seeds.get(log.seed)
        private = self._logs.get(log.private, _Log()).entries if log.private else []
        if 0 < have <= len(kept.entries):
            at = kept.entries[have - 1]
            return Stored(None, have, result, seed, kept.entries[have:], at, private[steps:], steps)
        version, blob, base = kept.snapshot
        at = kept.entries[version - 1] if 0 < version <= len(kept.entries) else None
        tail = kept.entries[version:]
        return Stored(blob or None, version, result, seed, tail, at, private[base:], base)

    def entries(self, stream: str, after: int = 0, count: int | None = None) -> list[bytes]:
        found = self._logs.get(stream, _Log()).entries[after:]
        return found if count is None else found[:count]

    def read(self, stream: str, after: int = 0, count: int | None = None) -> list[dict[str, Any]]:
        return [codec.loads(e) for e in self.entries(stream, after, count)]

    def stream(self, key: str) -> list[tuple[bytes, dict[bytes, bytes]]]:
        """A log's events or private steps as the Redis stream `key` holds them (ids
        `<n>-0`, the entry as field `e`, who owes what as `o` beside an append's last
        event), for the stream hub's twin (stores.memory.hub)."""
        kept = self._logs.get(key, _Log())
        out = []
        for n, entry in enumerate(kept.entries, 1):
            owed = kept.owed.get(n)
            fields = {b"e": entry, **({b"o": owed.encode()} if owed else {})}
            out.append((f"{n}-0".encode(), fields))
        return out

    def exists(self, stream: str) -> bool:
        return bool(self._logs.get(stream, _Log()).entries)

    def keep_seed(self, log: Log, seed: bytes) -> bytes:
        return self._seeds.setdefault(log.seed, seed)

    def save_snapshot(self, log: Log, version: int, blob: bytes, private: int = 0) -> None:
        kept = self._log(log.events)
        if version > kept.snapshot[0]:
            kept.snapshot = (version, blob, private)

    def write(self, writes: Writes) -> None:
        self.writes.extend(writes.commands)

    def append(self, request: Append) -> Appended:
        q = request
        kept = self._log(q.log.events)
        if q.guard is not None:
            self._guarded(q.guard, kept, q.expected, q.at_expected)
        steps = self._log(q.log.private) if q.log.private else _Log()
        if q.idem and q.idem in kept.results:
            raise Duplicate(kept.results[q.idem])
        if len(kept.entries) != q.expected or (q.log.private and len(steps.entries) != q.private):
            raise StaleVersion(q.expected, len(kept.entries))
        public, private = q.split()
        encoded = [codec.dumps(e) for e in public]
        kept.entries.extend(encoded)
        steps.entries.extend(codec.dumps(e) for e in private)
        if encoded and q.owed:  # beside the append's last event, as Redis keeps it
            kept.owed[len(kept.entries)] = q.owed
        if q.idem:
            kept.results[q.idem] = q.result
        if q.snapshot:
            kept.snapshot = (len(kept.entries), q.snapshot, len(steps.entries))
        if q.then:
            self.write(q.then)
        return Appended(len(kept.entries), encoded[-1] if encoded else b"")

    def _guarded(self, guard: Guard, kept: _Log, expected: int, at: bytes) -> None:
        """As scripts.APPEND_ADMITTED before it appends: the guard's checks, the entry at
        `expected` as the caller holds it, then the guard's count (kept even if the append
        then finds the log moved on)."""
        if self.run_guard is None:
            raise GuardFailed()
        if expected and (len(kept.entries) < expected or kept.entries[expected - 1] != at):
            raise GuardFailed()  # nothing counted, as when the guard's checks fail
        ran = self.run_guard(guard)
        if ran is None:
            raise GuardFailed()
        within, figures = ran
        guard.report(figures)
        if not within:
            raise GuardRefused()

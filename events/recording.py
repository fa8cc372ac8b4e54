"""The recorder's port: what the repository and the service ask of a log's storage
(`Recorder`), and what passes through it: a log's keys (`Log`), an append (`Append`, with
the writes that go with it, `Writes`, and an optional `Guard`), what it answers
(`Appended`) and what a load reads (`Stored`). `events.recorder.RedisRecorder` keeps it on
Redis, `events.memory_recorder.MemoryRecorder` in memory
(tests/events/test_recorder_contract.py runs both).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from events import keys, merkle, tlog_keys


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
        names = (tlog_keys.tlog_hashes(), tlog_keys.tlog_texts(), tlog_keys.tlog_ids())
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

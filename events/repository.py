"""The games' repository: a game's record loaded from its log (snapshot + tail, folded),
and the newest record this process has seen of each recent game, so that the next load
reads only the entries after it. It stores through a recorder (events.recorder).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from events import codec
from events.fold import fold_all, in_order
from events.record import Record
from events.recording import Append, Guard, Log, Recorder, Stored, Writes
from events.refusals import GuardFailed
from events.snapshot import decode as decode_snapshot
from events.snapshot import encode as encode_snapshot

logger = logging.getLogger(__name__)

Held = tuple[Record, bytes]  # a record and its last entry as stored

SNAPSHOT_EVERY = 10  # versions between snapshots, unless configured (SNAPSHOT_EVERY)


@dataclass
class Loaded:
    record: Record
    seed: bytes | None
    idem: str | None  # the stored result of this idempotency key, if it was used


@dataclass
class GameAppend:
    """An append to a game's log (see events.recorder.Append): `snapshot` is the record
    after the events if it is to be stored; `record`, folded through them, becomes the
    one this process holds; a `guard` (one Redis only) also requires the entry at
    `expected` to be the one this process holds."""

    game_id: str
    envelopes: list[dict[str, Any]]
    expected: int
    idem: str = ""
    result: str = ""
    snapshot: Record | None = None
    keep_idem_s: int = 0
    owed: str = ""
    then: Writes | None = None
    record: Record | None = None
    guard: Guard | None = None


class GameRepository:
    """Loads and appends games' logs through `recorder`, holding recent records."""

    def __init__(
        self, recorder: Recorder, snapshot_every: int = SNAPSHOT_EVERY, held_games: int = 256
    ):
        self.recorder = recorder
        # the newest record this process has seen of each recent game, with its last
        # entry as stored: a load then reads only the entries after it (no snapshot)
        self._held: OrderedDict[str, Held] = OrderedDict()
        self._seeds: dict[str, bytes] = {}  # the seeds of the games held
        self.held_games = held_games
        self.snapshot_every = snapshot_every

    def exists(self, game_id: str) -> bool:
        """Return True if the game has a stream."""
        return self.recorder.exists(Log.game(game_id).events)

    def keep_seed(self, game_id: str, seed: bytes) -> bytes:
        """Store the game's seed unless it has one (racing league workers agree on the
        first); return the one kept."""
        return self.recorder.keep_seed(Log.game(game_id), seed)

    def load_command(self, game_id: str) -> tuple[tuple[Any, ...], Held | None]:
        """Return the load's command (a Redis recorder's, to send in one round trip with
        others) and the record held that it names; `loaded` reads its reply."""
        held = self._held.get(game_id)
        have, steps = (held[0].version, held[0].private) if held else (0, 0)
        return self.recorder.load_command(Log.game(game_id), "", have, steps), held  # type: ignore[attr-defined]

    def load(self, game_id: str, idem: str = "") -> Loaded:
        """Return the game's record (snapshot + tail), its seed and an idempotent result."""
        held = self._held.get(game_id)
        have, steps = (held[0].version, held[0].private) if held else (0, 0)
        stored = self.recorder.load(Log.game(game_id), idem, have, steps)
        return self._loaded(game_id, stored, held, idem)

    def loaded(self, game_id: str, reply: list[Any], held: Held | None = None) -> Loaded:
        """Return what the reply of `load_command` says of the game."""
        return self._loaded(game_id, self.recorder.stored(reply), held, "")  # type: ignore[attr-defined]

    def _loaded(self, game_id: str, stored: Stored, held: Held | None, idem: str) -> Loaded:
        version, tail, steps, save = stored.version, stored.tail, stored.private, False
        if not stored.blob and version > 0:  # the tail follows the record held
            if held is None or held[0].version != version or held[1] != stored.at:
                self._held.pop(game_id, None)  # not this log's record: load afresh
                return self.load(game_id, idem)
            record = held[0]
        else:
            record = _decode(stored.blob, version) if stored.blob else None
            if record is None:
                record = Record(game_id)
                if stored.blob:  # an unreadable snapshot: refold from the start
                    tail = self.recorder.entries(Log.game(game_id).events)
                    steps = self.recorder.entries(Log.game(game_id).private)
            save = len(tail) >= self.snapshot_every
        envelopes = [codec.loads(entry) for entry in tail]
        if steps:  # a private log's steps, each right after the event it followed
            envelopes = in_order(envelopes, [codec.loads(entry) for entry in steps])
        record = fold_all(record, envelopes)
        if save:
            self.save_snapshot(record)
        self.hold(record, tail[-1] if tail else stored.at)
        if stored.seed and game_id in self._held:
            self._seeds[game_id] = stored.seed
        return Loaded(record, stored.seed, stored.result)

    def held(self, game_id: str) -> tuple[Loaded, bytes] | None:
        """Return the game as this process holds it (the newest record it has seen, and
        the seed) with its last entry as stored, without reading the log; None if it
        holds none. It may be behind the log, even from before a seat was taken: an
        append at its version then finds the log moved on (StaleVersion), and a guarded
        one finds its entry at that version is not this record's (GuardFailed)."""
        held, seed = self._held.get(game_id), self._seeds.get(game_id)
        return (Loaded(held[0], seed, None), held[1]) if held and seed else None

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
        """Return the game's envelopes with seq > `after`, oldest first."""
        return self.recorder.read(Log.game(game_id).events, after, count)

    def read_private(
        self, game_id: str, after: int = 0, upto: int | None = None
    ) -> list[dict[str, Any]]:
        """Return the game's private steps numbered above `after` (up to `upto`): for its
        parties' answers and, once the game is over, for everyone (never for others while
        it runs: docs/architecture.md, "Private steps")."""
        count = None if upto is None else max(upto - after, 0)
        if count == 0:
            return []
        return self.recorder.read(Log.game(game_id).private, after, count)

    def read_stream(self, stream: str, after: int = 0) -> list[dict[str, Any]]:
        """Return the envelopes of any log (e.g. a league's) with seq > `after`."""
        return self.recorder.read(stream, after)

    def append(self, request: GameAppend) -> int:
        """Append to the game's log (events.recorder.Append); return the new version.
        A guarded append is decided on the record this process holds at `expected`:
        GuardFailed if it holds none there."""
        q = request
        at = b""
        held = self._held.get(q.game_id)
        if q.guard is not None:
            if held is None or held[0].version != q.expected:
                raise GuardFailed()
            at = held[1]
        # the private steps logged before these (their count is checked as the version is)
        steps = [e["private"] for e in q.envelopes if "private" in e]
        before = steps[0] - 1 if steps else (q.record.private if q.record else 0)
        done = self.recorder.append(
            Append(
                log=Log.game(q.game_id),
                envelopes=q.envelopes,
                expected=q.expected,
                idem=q.idem,
                result=q.result,
                snapshot=encode_snapshot(q.snapshot) if q.snapshot else b"",
                keep_idem_s=q.keep_idem_s,
                owed=q.owed,
                then=q.then,
                guard=q.guard,
                at_expected=at,
                private=before,
            )
        )
        if q.record is not None and q.envelopes:
            same = held[1] if held and held[0].version == q.expected else None
            self.hold(q.record, done.last or same)  # private steps only: the same last entry
        return done.version

    def save_snapshot(self, record: Record) -> None:
        """Store `record` as the game's snapshot unless a newer one is there."""
        log, blob = Log.game(record.game_id), snapshot_blob(record)
        self.recorder.save_snapshot(log, record.version, blob, record.private)


def snapshot_blob(record: Record) -> bytes:
    """Return the stored form of `record`: data-only JSON (events.snapshot), never pickle."""
    return encode_snapshot(record)


def _decode(blob: bytes, version: int) -> Record | None:
    try:
        return decode_snapshot(blob, version)
    except Exception:  # a snapshot is a cache: any trouble means refold
        logger.warning("unreadable snapshot at version %s; refolding", version)
        return None

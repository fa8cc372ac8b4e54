"""A game's log as the command loop writes it (service.loop.Log).

A load is one Lua call: the snapshot (the Record as JSON), the tail after it, the seed,
and the first result of the idempotency key. Each append stores that result (the versions
it wrote, a digest of the request body, who owed what) and, every `SNAPSHOT_EVERY`
versions, the new snapshot. After an append the game's deadlines and ready phase are
scheduled and the players' inboxes updated.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from events import codec, ending
from events.record import ACTIVE, FINISHED, Record, fold_all
from games.base import Event
from service import inbox
from service.errors import Invalid, NotFound
from service.loop import Head, Outcome

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def fingerprint(payload: Any) -> str:
    """Return a digest of a request body, to tell a retry from a reused key."""
    return hashlib.sha256(codec.canonical(payload).encode()).hexdigest()[:32]


def owed(rec: Record) -> list[dict[str, Any]]:
    """Return the decisions owed now, with their deadlines."""
    return [{"seat": o.seat, "kind": o.kind, "deadline": rec.deadline(o.key)} for o in rec.owed()]


def pending(rec: Record) -> bool:
    """Return True while a simultaneous phase is open or waits to be resolved."""
    if rec.status != ACTIVE:
        return False
    return rec.game.ready(rec.state) is not None or any(o.simultaneous for o in rec.owed())


def load(boot: Bootstrap, game_id: str) -> Record:
    """Return the game's record, or raise NotFound."""
    rec = boot.store.load(game_id).record
    if rec.version == 0:
        raise NotFound("game_not_found", f"no game {game_id!r}")
    return rec


def schedule(boot: Bootstrap, rec: Record, keys: set[str]) -> None:
    """Schedule the deadlines of decisions `keys` and the resolution of a ready phase."""
    for key in keys:
        if deadline := rec.deadline(key):
            boot.scheduler.expiry(rec.game_id, key, deadline)
    if rec.status == ACTIVE and (phase := rec.game.ready(rec.state)) is not None:
        boot.scheduler.resolution(rec.game_id, phase)


def reschedule(boot: Bootstrap, rec: Record) -> None:
    """Schedule again everything the game needs now: the deadlines of the decisions owed,
    a ready phase's resolution, a finished league game's result. Repeating it is harmless,
    so a retried request repairs a first call that died between its append and its
    scheduling."""
    schedule(boot, rec, {o.key for o in rec.owed()})
    if rec.status == FINISHED and rec.league:
        boot.scheduler.league_result(rec.league["id"], rec.game_id)


class GameLog:
    """One game's log; `allow_new` lets a command write the first event of a new game,
    and `body` is the request whose digest tells a retry from a reused key."""

    kind = "game"

    def __init__(self, boot: Bootstrap, game_id: str, body: Any = None, allow_new: bool = False):
        self.boot, self.game_id, self.allow_new = boot, game_id, allow_new
        self.print = fingerprint(body)

    def load(self, idem: str) -> Head[Record]:
        loaded = self.boot.store.load(self.game_id, idem)
        rec = loaded.record
        if rec.version == 0 and not self.allow_new:
            raise NotFound("game_not_found", f"no game {self.game_id!r}")
        return Head(rec, rec.version, rec.last_hash, rec.draws, loaded.seed, loaded.idem)

    def fold(self, state: Record, envelopes: list[dict[str, Any]]) -> Record:
        return fold_all(state, envelopes)

    def closing(self, new: Record, head: Head[Record]) -> list[Event]:
        """Return game.Ended (the result and the revealed seed) once the game ends
        (`events.ending`: completed, abandoned, resigned or aborted)."""
        if not ending.ends_now(new):
            return []
        result = ending.result(new, ending.reason(new) or "completed")
        return [Event("game.Ended", {"result": result, "seed": (head.seed or b"").hex()})]

    def append(
        self, head: Head[Record], new: Record, envelopes: list[dict[str, Any]], idem: str
    ) -> None:
        first = {
            "first": head.version + 1,
            "last": new.version,
            "body": self.print,
            "owed": owed(new),
            "pending": pending(new),
        }
        every = self.boot.store.snapshot_every
        snapshot = new if new.version // every > head.version // every else None
        self.boot.store.append(
            self.game_id, envelopes, head.version, idem, json.dumps(first), snapshot
        )

    def after(self, old: Record, new: Record) -> None:
        """Schedule the new deadlines and a ready phase; update the players' inboxes."""
        schedule(self.boot, new, {o.key for o in new.owed()} - {o.key for o in old.owed()})
        inbox.after_append(self.boot, old, new)  # players' games, feeds; league results

    def outcome(self, state: Record, envelopes: list[dict[str, Any]], created: bool) -> Outcome:
        return Outcome(state, envelopes, created, state.version, owed(state), pending(state))

    def repeat(self, stored: str, head: Head[Record] | None = None) -> Outcome:
        """Answer a retry with the first call's result (and repair its scheduling)."""
        rec = head.state if head is not None else load(self.boot, self.game_id)
        reschedule(self.boot, rec)  # the first call may have died before scheduling
        first = json.loads(stored)
        if first["body"] != self.print:
            raise Invalid(
                "idempotency_key_reused", "this Idempotency-Key was used with another body"
            )
        count = first["last"] - first["first"] + 1
        envelopes = self.boot.store.read(rec.game_id, first["first"] - 1, count)
        return Outcome(rec, envelopes, False, first["last"], first["owed"], first["pending"])

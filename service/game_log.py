"""A game's log as the command loop writes it (service.loop.Log).

A load is one Lua call: the snapshot (the Record as JSON), the tail after it, the seed,
and the first result of the idempotency key. Each append stores that result, small: the
versions it wrote and a digest of the request body, "<first> <last> <digest>" (a retry's
answer is rebuilt from the log), and, every `SNAPSHOT_EVERY` versions, the new snapshot.
The append that ends a game sets its idempotency records to expire `IDEM_KEEP_S` later.
The new deadlines and the players' inboxes are written with the append (in its script
on one Redis, right after it on a cluster); then a ready phase is scheduled.
"""

from __future__ import annotations

import hashlib
import json
from functools import partial
from typing import TYPE_CHECKING, Any

from events import catalog, codec, deadlines, ending
from events import transparency as events_transparency
from events.fold import fold_all, in_order
from events.record import ACTIVE, FINISHED, Record
from events.recording import Guard, Writes
from events.redact import is_private
from events.repository import GameAppend, Loaded
from games.base import Event
from service import inbox, lobby, receipts
from service.errors import Invalid, NotFound
from service.loop import Head, Outcome
from service.ports import SEAT_SEEDS

REVEAL_KEY = SEAT_SEEDS  # the deadline index's key of a game's reveals closing (`reveals`)

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def fingerprint(payload: Any) -> str:
    """Return a digest of a request body, to tell a retry from a reused key."""
    return hashlib.sha256(codec.canonical_bytes(payload)).hexdigest()[:16]


def first_result(stored: str) -> tuple[int, int, str, int, int]:
    """Return (first version, last version, body digest, first and last private step) of a
    stored result (also the JSON form written before results were made small)."""
    if stored.startswith("{"):
        old = json.loads(stored)
        return old["first"], old["last"], old["body"][:16], 1, 0
    first, last, digest, *steps = stored.split(" ")
    low, high = (int(steps[0]), int(steps[1])) if steps else (1, 0)
    return int(first), int(last), digest, low, high


def owed(rec: Record) -> list[dict[str, Any]]:
    """Return the decisions owed now, with their deadlines."""
    return [
        {
            "seat": o.seat,
            "kind": o.kind,
            "simultaneous": o.simultaneous,
            "deadline": rec.deadline(o.key),
        }
        for o in rec.owed()
    ]


def pending(rec: Record) -> bool:
    """Return True while a simultaneous phase is open or waits to be resolved."""
    if rec.status != ACTIVE:
        return False
    return rec.game.ready(rec.state) is not None or any(o.simultaneous for o in rec.owed())


def load(boot: Bootstrap, game_id: str, loaded: Loaded | None = None) -> Record:
    """Return the game's record (from `loaded` if the caller loaded it already, in the
    same round trip as other commands), or raise NotFound."""
    rec = (loaded or boot.store.load(game_id)).record
    if rec.version == 0:
        raise NotFound("game_not_found", f"no game {game_id!r}")
    return rec


def computer_turns(rec: Record) -> set[str]:
    """Return the decisions computer seats owe now, each as `<seat>-<decision key>` (one per
    seat: the seats of a simultaneous phase share its key)."""
    if not any(s.computer for s in rec.seats):
        return set()
    return {f"{o.seat}-{o.key}" for o in rec.owed() if rec.computer(o.seat)}


def computer_reveals(rec: Record) -> set[str]:
    """Return the reveals computer seats owe now (service.computer_seeds), each as
    `<seat>-seat-seeds` (a computer turn's key)."""
    if not rec.revealing:
        return set()
    done = {s for s, _ in rec.reveals}
    return {
        f"{s.seat}-{SEAT_SEEDS}"
        for s in rec.seats
        if s.computer and s.commitment and s.seat not in done
    }


def schedule(boot: Bootstrap, rec: Record, keys: set[str]) -> None:
    """Schedule the deadlines of decisions `keys` and the resolution of a ready phase."""
    for key in keys:
        if deadline := rec.deadline(key):
            boot.scheduler.expiry(rec.game_id, key, deadline)
    for turn in computer_turns(rec):
        if turn.split("-", 1)[1] in keys:
            boot.scheduler.computer_turn(rec.game_id, turn)
    if rec.status == ACTIVE and (phase := rec.game.ready(rec.state)) is not None:
        boot.scheduler.resolution(rec.game_id, phase)


def index_deadlines(boot: Bootstrap, old: Record, new: Record, then: Writes) -> None:
    """Write into `then` what an append changes in the deadline index (by the deadline
    rule, `events.deadlines.changes`), and the computer seats' moves it makes due."""
    due, gone = deadlines.changes(old, new)
    for key, deadline in due.items():
        boot.scheduler.expiry(new.game_id, key, deadline, then)
    for key in gone:
        boot.scheduler.done("expire", new.game_id, key, then)
    for turn in computer_turns(new) - computer_turns(old):  # a computer seat's move is due
        boot.scheduler.computer_turn(new.game_id, turn, then)
    if (closes := new.reveal_deadline()) and not old.revealing:  # the seats' reveals close
        boot.scheduler.reveals_close(new.game_id, closes, then)
        for turn in computer_reveals(new):  # a computer seat reveals at once
            boot.scheduler.computer_turn(new.game_id, turn, then)
    elif old.revealing and not new.revealing:  # all in before the window closed
        boot.scheduler.done("reveals", new.game_id, REVEAL_KEY, then)


def reschedule(boot: Bootstrap, rec: Record) -> None:
    """Schedule again everything the game needs now: the deadlines of the decisions owed,
    a ready phase's resolution, a finished league game's result. Repeating it is harmless,
    so a retried request repairs a first call that died between its append and its
    scheduling."""
    schedule(boot, rec, {o.key for o in rec.owed()})
    if closes := rec.reveal_deadline():
        boot.scheduler.reveals_close(rec.game_id, closes)
        for turn in computer_reveals(rec):
            boot.scheduler.computer_turn(rec.game_id, turn)
    if rec.status == FINISHED and rec.league:
        boot.scheduler.league_result(rec.league["id"], rec.game_id)


class GameLog:
    """One game's log; `allow_new` lets a command write the first event of a new game,
    and `body` is the request whose digest tells a retry from a reused key."""

    kind = "game"

    @property
    def subject(self) -> str:
        return self.game_id

    def __init__(
        self,
        boot: Bootstrap,
        game_id: str,
        body: Any = None,
        allow_new: bool = False,
        loaded: Loaded | None = None,
        guard: Guard | None = None,
    ):
        self.boot, self.game_id, self.allow_new = boot, game_id, allow_new
        self.print = fingerprint(body)
        self.first = loaded  # what the caller loaded already: the first attempt uses it
        self.guard = guard  # run by the first append only (service.admission)

    def load(self, idem: str) -> Head[Record]:
        loaded, self.first = self.first or self.boot.store.load(self.game_id, idem), None
        rec = loaded.record
        if rec.version == 0 and not self.allow_new:
            raise NotFound("game_not_found", f"no game {self.game_id!r}")
        game = rec.game if rec.ruleset else None
        private = partial(is_private, game) if game is not None else None
        head = Head(rec, rec.version, rec.last_hash, rec.draws, loaded.seed, loaded.idem)
        head.private, head.private_hash, head.is_private = rec.private, rec.private_hash, private
        head.draw_seed = rec.draw_seed(loaded.seed) if loaded.seed else None
        return head

    def fold(self, state: Record, envelopes: list[dict[str, Any]]) -> Record:
        return fold_all(state, envelopes)

    def closing(self, new: Record, head: Head[Record]) -> list[Event]:
        """Return game.Ended (the result and the revealed seed) once the game ends
        (`events.ending`: completed, abandoned, resigned or aborted)."""
        if not ending.ends_now(new):
            return []
        result = ending.result(new, ending.reason(new) or "completed")
        return [Event(catalog.ENDED, {"result": result, "seed": (head.seed or b"").hex()})]

    def append(
        self, head: Head[Record], new: Record, envelopes: list[dict[str, Any]], idem: str
    ) -> None:
        first = f"{head.version + 1} {new.version} {self.print}"
        if new.private > head.state.private:  # the private steps it wrote, for a retry
            first += f" {head.state.private + 1} {new.private}"
        every = self.boot.store.snapshot_every
        ended = new.status == FINISHED and head.state.status != FINISHED
        crossed = new.version // every > head.version // every
        snapshot = new if crossed or ended else None
        keep = int(self.boot.config["IDEM_KEEP_S"]) if ended else 0
        then = Writes()  # the deadlines, the players' games and feeds, the public log
        index_deadlines(self.boot, head.state, new, then)
        due = events_transparency.due(head.state, new, envelopes)
        promise = receipts.promise_at_end(self.boot, self.game_id, dict(due))
        delay = float(self.boot.config["NOTIFY_LIVE_DELAY_S"])
        inbox.after_append(head.state, new, then, envelopes, promise, live_delay_s=delay)
        for leaf_id, text in due:
            then.tlog(leaf_id, text)
        guard, self.guard = self.guard, None
        self.boot.store.append(
            GameAppend(
                game_id=self.game_id,
                envelopes=envelopes,
                expected=head.version,
                idem=idem,
                result=first,
                snapshot=snapshot,
                keep_idem_s=keep,
                owed=json.dumps(owed(new), separators=(",", ":")),
                then=then,
                record=new,
                guard=guard,
            )
        )

    def after(self, old: Record, new: Record) -> None:
        """Have a ready phase resolved and a finished league game recorded (the deadlines
        and the inboxes were written with the append)."""
        if new.status == ACTIVE and (phase := new.game.ready(new.state)) is not None:
            self.boot.scheduler.resolution(new.game_id, phase)
        for turn in computer_turns(new) - computer_turns(old):  # at once, not at the next sweep
            self.boot.scheduler.computer_turn(new.game_id, turn, now=True)
        if new.status == FINISHED and old.status != FINISHED and new.league:
            self.boot.scheduler.league_result(new.league["id"], new.game_id)
        if lobby.changed(old, new):  # a script of its own: its keys span slots
            lobby.index(self.boot, new)

    def outcome(self, state: Record, envelopes: list[dict[str, Any]], created: bool) -> Outcome:
        return Outcome(state, envelopes, created, state.version, owed(state), pending(state))

    def repeat(self, stored: str, head: Head[Record] | None = None) -> Outcome:
        """Answer a retry with the first call's result (and repair its scheduling)."""
        rec = head.state if head is not None else load(self.boot, self.game_id)
        reschedule(self.boot, rec)  # the first call may have died before scheduling
        first, last, digest, low, high = first_result(stored)
        if digest != self.print:
            raise Invalid(
                "idempotency_key_reused", "this Idempotency-Key was used with another body"
            )
        envelopes = []
        if last >= first:
            envelopes = self.boot.store.read(rec.game_id, first - 1, last - first + 1)
        if high >= low:  # its private steps (the caller's own: a party to each)
            steps = self.boot.store.read_private(rec.game_id, low - 1, high)
            envelopes = in_order(envelopes, steps)
        then = rec if rec.version == last else fold_all(Record(rec.game_id), self._upto(last))
        return Outcome(rec, envelopes, False, last, owed(then), pending(then))

    def _upto(self, version: int) -> list[dict[str, Any]]:
        return self.boot.store.read(self.game_id, 0, version)

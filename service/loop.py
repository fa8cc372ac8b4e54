"""The command loop every write goes through, for games and leagues alike:
load → decide → append → schedule.

A command is a function of the loaded state that returns who acts and the events it
causes. The loop stamps them into envelopes (`events.envelope`), folds them, lets the log
add what follows from them (a game's end), appends them atomically with an
expected-version check and an idempotency key, decides again on a lost race, and lets
the log schedule what the new state needs (also when the append is written but its
replicas did not confirm it in time: NotReplicated, raised after that). A `Log` says
how one kind of log is loaded, stored and answered: `service.game_log.GameLog`,
`service.league_log.LeagueLog`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from events import codec, envelope
from events.refusals import Duplicate, StaleVersion
from events.replication import NotReplicated
from games.base import Event, RuleViolation
from games.rng import Rng
from service import metrics, oplog
from service.errors import Contention

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

S = TypeVar("S")
Actor = envelope.Actor
Decide = Callable[[Any, Rng], tuple[Actor, list[Event]]]


@dataclass
class Head(Generic[S]):
    """A log as loaded: its folded state, version and last hash, where its draws stand,
    its seed, and the first result of the idempotency key if that key was used."""

    state: S
    version: int
    last_hash: str
    draws: int = 0
    seed: bytes | None = None
    stored: str | None = None
    # a game's private log (docs/architecture.md, "Private steps"): steps so far, the last
    # one's hash, and which events go there
    private: int = 0
    private_hash: str = codec.GENESIS
    is_private: Callable[[Event], bool] | None = None
    draw_seed: bytes | None = None  # what a game draws with, if not the seed (seed rule 2)


@dataclass
class Outcome:
    record: Any  # the folded state after the command: a game's Record, a League
    envelopes: list[dict[str, Any]]
    created: bool = True  # False when nothing was appended (nothing to do, or a retry)
    version: int = 0  # the version right after this command
    owed: list[dict[str, Any]] = field(default_factory=list)  # who owed what right after it
    pending: bool = False  # a simultaneous phase is still open or waiting to be resolved


class Log(Protocol[S]):
    """One log the loop can write (`kind` names it in errors)."""

    kind: str
    subject: str  # the game's or league's id

    def load(self, idem: str) -> Head[S]: ...

    def fold(self, state: S, envelopes: list[dict[str, Any]]) -> S: ...

    def closing(self, new: S, head: Head[S]) -> list[Event]: ...

    def append(self, head: Head[S], new: S, envelopes: list[dict[str, Any]], idem: str) -> None: ...

    def after(self, old: S, new: S) -> None: ...

    def outcome(self, state: S, envelopes: list[dict[str, Any]], created: bool) -> Outcome: ...

    def repeat(self, stored: str, head: Head[S] | None = None) -> Outcome: ...


def run(
    boot: Bootstrap,
    log: Log,
    decide: Decide,
    *,
    cause: str,
    idem: str = "",
    if_match: int | None = None,
    command: dict[str, Any] | None = None,
    stale_ok: Callable[[Any, int], bool] | None = None,
) -> Outcome:
    """Apply `decide` to the newest state of `log` and append its events once.

    `command` (what was asked, e.g. {"type": "act", "player": ..., "action": {...}}) is
    recorded on the first envelope, so an audit can decide it again. An `if_match` older
    than the log is refused with StaleVersion unless `stale_ok(state, if_match)` says the
    command still stands (a simultaneous submission whose phase is still open). A refusal
    (StaleVersion, or the rules' RuleViolation) carries the record it was decided on as
    `record`."""
    for _ in range(int(boot.config["COMMAND_RETRIES"])):
        head = log.load(idem)
        if head.stored is not None:
            return log.repeat(head.stored, head)
        rng = Rng(head.draw_seed or head.seed or b"", head.draws)
        try:
            if if_match is not None and if_match != head.version:
                if stale_ok is None or not stale_ok(head.state, if_match):
                    raise StaleVersion(if_match, head.version)
            actor, events = decide(head.state, rng)
        except (StaleVersion, RuleViolation) as refused:
            refused.record = head.state  # what it was refused on: its answer says what now
            raise
        if not events:
            return log.outcome(head.state, [], False)
        at = codec.now_iso()
        envelopes = envelope.build(
            events, head.version, actor, cause, at, head.private, head.is_private
        )
        if rng.counter > head.draws:
            envelopes[0]["draws"] = [head.draws, rng.counter]
        if command is not None:
            envelopes[0]["command"] = command
        sealed = codec.seal_logs(envelopes, head.last_hash, head.private_hash)
        new = log.fold(head.state, sealed)
        if closing := log.closing(new, head):
            version, last_hash = new.version, new.last_hash
            more = codec.seal(envelope.build(closing, version, "system", cause, at), last_hash)
            envelopes += more
            new = log.fold(new, more)
        boot.before_append()
        began = time.perf_counter()
        try:
            log.append(head, new, envelopes, idem)
        except StaleVersion:
            continue  # decide again on the newer log (a stale If-Match is refused there)
        except Duplicate as dup:
            return log.repeat(dup.stored)
        except NotReplicated:  # written on the master, not acknowledged: what follows it
            log.after(head.state, new)  # is done still, and a retry answers it once confirmed
            raise
        metrics.appended(log.kind, time.perf_counter() - began)
        oplog.appended(log.kind, log.subject, envelopes)
        log.after(head.state, new)
        return log.outcome(new, envelopes, True)
    raise Contention("contention", f"too many concurrent writes to this {log.kind}; retry")

"""The command loop every write goes through: load → decide → append → schedule.

A command is a function of the loaded game that returns the events it causes; this
module stamps them into envelopes, appends them atomically with an expected-version
check and an idempotency key, retries on a lost race, and schedules deadlines.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from events import codec
from events.record import ACTIVE, FINISHED, Record, fold_all
from events.store import Duplicate, Loaded, StaleVersion
from games.base import Event
from games.rng import Rng
from service import inbox, present
from service.errors import Problem
from workers import schedule

if TYPE_CHECKING:
    from service.deps import Deps

logger = logging.getLogger(__name__)
Actor = int | str
Decide = Callable[[Loaded, Rng], tuple[Actor, list[Event]]]


@dataclass
class Outcome:
    record: Record
    envelopes: list[dict[str, Any]]
    created: bool = True  # False when an idempotent retry returned the first result
    version: int = 0  # the version right after this command
    owed: list[dict[str, Any]] = field(default_factory=list)  # who owed what right after it
    pending: bool = False  # a simultaneous phase is still open or waiting to be resolved


def fingerprint(payload: Any) -> str:
    """Return a digest of a request body, to tell a retry from a reused key."""
    return hashlib.sha256(codec.canonical(payload).encode()).hexdigest()[:32]


def load(deps: Deps, game_id: str, idem: str = "") -> Loaded:
    """Load a game or raise 404."""
    loaded = deps.store.load(game_id, idem)
    if loaded.record.version == 0:
        raise Problem(404, "game_not_found", f"no game {game_id!r}")
    return loaded


def run(
    deps: Deps,
    game_id: str,
    decide: Decide,
    *,
    cause: str,
    idem: str = "",
    body: Any = None,
    if_match: int | None = None,
    allow_new: bool = False,
    command: dict[str, Any] | None = None,
) -> Outcome:
    """Apply `decide` to the newest state of the game and append its events once.

    `command` (what was asked, e.g. {"type": "act", "player": ..., "action": {...}}) is
    recorded on the first envelope, so an audit can decide it again."""
    print_ = fingerprint(body)
    for _ in range(int(deps.config["COMMAND_RETRIES"])):
        loaded = deps.store.load(game_id, idem) if allow_new else load(deps, game_id, idem)
        if loaded.idem is not None:
            reschedule(deps, loaded.record)  # the first call may have died before scheduling
            return _replay(deps, loaded, loaded.idem, print_)
        rec = loaded.record
        if if_match is not None and if_match != rec.version:
            raise StaleVersion(if_match, rec.version)
        rng = Rng(loaded.seed or b"", rec.draws)
        actor, events = decide(loaded, rng)
        if not events:
            return Outcome(rec, [], False, rec.version, present.owed(rec), _pending(rec))
        envelopes = _envelopes(rec, events, actor, cause, start_draws=rec.draws, rng=rng)
        envelopes[0]["command"] = command or {"type": cause.split(":")[0]}
        new = fold_all(rec, codec.seal(envelopes, rec.last_hash))
        if new.status != FINISHED and new.state is not None and new.game.is_over(new.state):
            ended = codec.seal(_ended(new, loaded.seed, cause, envelopes[-1]["at"]), new.last_hash)
            envelopes += ended
            new = fold_all(new, ended)
        owed, pending = present.owed(new), _pending(new)
        stored = json.dumps(
            {
                "first": rec.version + 1,
                "last": new.version,
                "body": print_,
                "owed": owed,
                "pending": pending,
            }
        )
        every = deps.store.snapshot_every
        snapshot = new if new.version // every > rec.version // every else None
        try:
            deps.store.append(game_id, envelopes, rec.version, idem, stored, snapshot)
        except StaleVersion:
            if if_match is not None:
                raise
            continue
        except Duplicate as dup:
            current = load(deps, game_id)
            reschedule(deps, current.record)
            return _replay(deps, current, dup.stored, print_)
        _after_append(deps, rec, new)
        return Outcome(new, envelopes, True, new.version, owed, pending)
    raise Problem(503, "contention", "too many concurrent writes to this game; retry")


def _envelopes(
    rec: Record, events: list[Event], actor: Actor, cause: str, start_draws: int, rng: Rng
) -> list[dict[str, Any]]:
    at = codec.now_iso()
    out = []
    for i, event in enumerate(events):
        env: dict[str, Any] = {
            "seq": rec.version + 1 + i,
            "type": event.type,
            "data": json.loads(codec.canonical(event.data)),  # exactly what a reload sees
            "actor": actor,
            "at": at,
            "cause": cause,
            "visible_to": event.visible_to if event.visible_to == "all" else list(event.visible_to),
        }
        if event.visible_to != "all":
            env["salt"] = secrets.token_hex(16)
        out.append(env)
    if out and rng.counter > start_draws:
        out[0]["draws"] = [start_draws, rng.counter]
    return out


def _ended(new: Record, seed: bytes | None, cause: str, at: str) -> list[dict[str, Any]]:
    result = new.game.result(new.state).to_json()
    return [
        {
            "seq": new.version + 1,
            "type": "game.Ended",
            "data": {"result": result, "seed": (seed or b"").hex()},
            "actor": "system",
            "at": at,
            "cause": cause,
            "visible_to": "all",
        }
    ]


def _replay(deps: Deps, loaded: Loaded, stored: str, print_: str) -> Outcome:
    first = json.loads(stored)
    if first["body"] != print_:
        raise Problem(
            422, "idempotency_key_reused", "this Idempotency-Key was used with another body"
        )
    rec = loaded.record
    envelopes = deps.store.read(rec.game_id, first["first"] - 1, first["last"] - first["first"] + 1)
    return Outcome(rec, envelopes, False, first["last"], first["owed"], first["pending"])


def _pending(rec: Record) -> bool:
    if rec.status != ACTIVE:
        return False
    return rec.game.ready(rec.state) is not None or any(o.simultaneous for o in rec.owed())


def _after_append(deps: Deps, old: Record, new: Record) -> None:
    before = {o.key for o in old.owed()}
    for key in {o.key for o in new.owed()} - before:
        deadline = new.deadline(key)
        if deadline:
            schedule.expiry(deps, new.game_id, key, deadline)
    if new.status == ACTIVE and (phase := new.game.ready(new.state)) is not None:
        schedule.resolution(deps, new.game_id, phase)
    inbox.after_append(deps, old, new)  # players' games, feeds; league results


def reschedule(deps: Deps, rec: Record) -> None:
    """Schedule again everything the game needs now: the deadlines of the decisions owed,
    a ready phase's resolution, a finished league game's result. Repeating it is harmless,
    so a retried request repairs a first call that died between its append and its
    scheduling."""
    for key in {o.key for o in rec.owed()}:
        if deadline := rec.deadline(key):
            schedule.expiry(deps, rec.game_id, key, deadline)
    if rec.status == ACTIVE and (phase := rec.game.ready(rec.state)) is not None:
        schedule.resolution(deps, rec.game_id, phase)
    if rec.status == FINISHED and rec.league:
        schedule.league_result(deps, rec.league["id"], rec.game_id)

"""What a seated player tried and the server refused: kept for disputes.

A move that arrives after its decision's default was applied is refused `deadline_passed`
(not `not_your_turn`), naming the deadline and the arrival time (`late`). Every action a
seated player sends that the game refuses (409, or 412 for a stale `If-Match`) is kept,
newest first, in the game's own list `mf:{g:<id>}:refused` (the newest KEEP): when it
arrived, the seat, the code and detail, the game's version then, the deadline for a late
move, and the action.

The list is not in the game's hash-chained log, on purpose: the log holds what the rules
decided, and the audit decides every command of it again; a refusal decided nothing, must
not move the game's version (clients send it as `If-Match`), and anyone could grow a log
with refused calls. It is the server's word about what it received, as the outages are:
evidence for an organizer's ruling, not a proof like the log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from events import catalog
from events.codec import iso, parse_time
from events.fold import fold_all, in_order
from events.record import FINISHED, Record
from events.refusals import StaleVersion
from games.base import InvalidAction, RuleViolation
from service import oplog

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

KEEP = 200  # refused attempts kept per game
LATE_CODES = ("not_your_turn", "phase_closed")  # what a defaulted decision's move hits


class Late(RuleViolation):
    """A move for a decision whose deadline passed and whose default was applied already:
    the seat owes nothing more, but the move was meant for that decision."""

    def __init__(self, key: str, deadline: str, arrived: float):
        arrived_at = iso(arrived)
        super().__init__(
            f"decision {key!r} was due at {deadline}; your move arrived at {arrived_at}, "
            "after its default was applied",
            code="deadline_passed",
        )
        self.extra = {"decision": key, "deadline": deadline, "arrived_at": arrived_at}


def late(
    boot: Bootstrap,
    rec: Record,
    seat: int | None,
    refused: RuleViolation,
    arrived: float,
    read: int | None,
) -> RuleViolation:
    """Return the refusal to answer a seat whose move the rules refused at `arrived`: Late
    if the seat's latest decision was defaulted (none of its moves since) and the mover
    had not seen that default (`read`, its If-Match, is older than it or absent), else
    `refused`."""
    if seat is None or refused.code not in LATE_CODES:
        return refused
    if not rec.defaults_in_row or seat >= len(rec.defaults_in_row) or not rec.defaults_in_row[seat]:
        return refused
    log = boot.store.read(rec.game_id, 0, rec.version)
    last = next(
        (
            i
            for i in range(len(log) - 1, -1, -1)
            if log[i]["type"] == catalog.DECISION_TIMED_OUT and log[i]["data"].get("seat") == seat
        ),
        None,
    )
    if last is None or (read is not None and read >= log[last]["seq"]):
        return refused
    key, before = log[last]["data"]["key"], log[:last]
    steps = [e for e in boot.store.read_private(rec.game_id, 0, rec.private) if e["seq"] < last + 1]
    then = fold_all(Record(rec.game_id), in_order(before, steps) if steps else before)
    deadline = then.deadline(key) or log[last]["at"]
    if arrived <= parse_time(deadline).timestamp():
        return refused
    return Late(key, deadline, arrived)


def record(
    boot: Bootstrap,
    rec: Record | None,
    player_id: str,
    action: dict[str, Any],
    refused: Exception,
    arrived: float,
) -> None:
    """Keep a refused action of a seated player (others' are not about this game): one the
    rules refused (409), or one sent with an `If-Match` the game had moved past (412)."""
    if rec is None or isinstance(refused, InvalidAction):
        return
    if isinstance(refused, StaleVersion):
        code = "version_mismatch"
    elif isinstance(refused, RuleViolation):
        code = refused.code
    else:
        return
    seat = rec.seat_of(player_id)
    if seat is None:
        return
    entry = {
        "at": iso(arrived),
        "player": player_id,
        "seat": seat,
        "code": code,
        "detail": str(refused),
        "version": rec.version,
        **getattr(refused, "extra", {}),
        "action": action,
    }
    boot.attempts.keep(rec.game_id, entry, KEEP)
    oplog.refused(rec.game_id, seat, code)


def read(boot: Bootstrap, rec: Record, viewer: str | None) -> list[dict[str, Any]]:
    """Return the game's refused attempts, oldest first. While the game runs, an attempt's
    action is shown to its author only (a refused sealed bid stays secret); once it is
    over, to everyone who may read the list."""
    out = []
    for entry in reversed(boot.attempts.newest(rec.game_id, KEEP)):
        if rec.status != FINISHED and entry["player"] != viewer:
            entry.pop("action", None)
        out.append(entry)
    return out

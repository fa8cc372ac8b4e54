"""Folding a game's log into its record.

`game.*` events (created, joined, reveals opened, seed revealed, seeds combined, started,
timed out, resigned, deadline extended, aborted, seat taken by a substitute, seat away,
paused, resumed, ended) are folded here; every other event goes to the game's own `evolve`.
Knows no Redis and no HTTP.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from events import catalog
from events.record import (
    ACCEPTED,
    ACTIVE,
    CANCELLED,
    DECLINED,
    FINISHED,
    LAPSED,
    PENDING,
    Record,
    Seat,
)
from games.base import Event, Owed


def _with(record: Record, changes: dict[str, Any]) -> Record:
    """Return a copy of the frozen record with `changes` (cheaper than dataclasses.replace,
    which matters when an audit folds thousands of events)."""
    copy = object.__new__(Record)
    copy.__dict__.update(record.__dict__, **changes)
    copy.__dict__.pop("_owed", None)
    return copy


def fold(record: Record, envelope: dict[str, Any]) -> Record:
    """Apply one envelope to the record."""
    kind, data = envelope["type"], envelope["data"]
    changes: dict[str, Any] = {"version": envelope["seq"], "last_hash": envelope["hash"]}
    owed: list[Owed] | None = None  # the new state's, once computed
    if "private" in envelope:  # a private step: the public version does not move
        changes = {"private": envelope["private"], "private_hash": envelope["hash"]}
        seen = list(record.private_seen) or [0] * record.players
        for seat in envelope["visible_to"]:
            if 0 <= seat < len(seen):
                seen[seat] += 1
        changes["private_seen"] = tuple(seen)
        party = list(record.party_at) or [""] * record.players
        for seat in envelope["visible_to"]:
            if 0 <= seat < len(party):
                party[seat] = envelope["at"]
        changes["party_at"] = tuple(party)
    else:
        changes["public_at"] = envelope.get("at", record.public_at)
    changes["last_at"] = envelope.get("at", record.last_at)  # private steps too: activity
    if "draws" in envelope:
        changes["draws"] = envelope["draws"][1]
    if (table := TABLE_FOLDS.get(kind)) is not None:
        changes.update(table(record, data, envelope))
    elif not catalog.is_table_event(kind):
        game = record.game
        state = game.evolve(record.state, Event(kind, data, _visible(envelope["visible_to"])))
        owed = game.owed(state)
        changes.update(
            state=state,
            owed_since=_owed_since(record, owed, envelope["at"]),
            owed_from=_owed_from(record, owed, envelope["seq"]),
        )
        if record.extended:
            keys = {k for k, _ in changes["owed_since"]}
            changes["extended"] = tuple(e for e in record.extended if e[0] in keys)
    command = envelope.get("command")
    if command and command.get("type") == "act" and record.status == ACTIVE:
        seat = record.seat_of(command.get("player", ""))
        if seat is not None and seat not in record.moved:
            changes["moved"] = changes.get("moved", record.moved) | {seat}
    if command and command.get("type") == "act" and record.defaults_in_row:
        seat = record.seat_of(command.get("player", ""))  # a redacted command names no one
        if seat is not None:  # an action in time: this seat is not absent
            base = changes.get("defaults_in_row", record.defaults_in_row)
            changes["defaults_in_row"] = _count(base, seat, None)
    folded = _with(record, changes)
    if owed is not None and folded.status == ACTIVE and folded.state:
        folded.__dict__["_owed"] = owed  # what its `owed()` would compute again
    return folded


def _created(record: Record, data: dict[str, Any], envelope: dict[str, Any]) -> dict[str, Any]:
    return {
        "ruleset": data["ruleset"],
        "rules_version": data.get("rules_version"),
        "options": data["options"],
        "players": data["players"],
        "decision_timeout_s": data["decision_timeout_s"],
        "time_model": data.get("time_model", 1),
        "created_at": envelope["at"],
        "league": data.get("league"),
        "creator": data.get("creator"),
        "seed_rule": data.get("seed_rule", 1),
        "reveal_window_s": data.get("reveal_window_s"),
    }


def _terms(record: Record, data: dict[str, Any], envelope: dict[str, Any]) -> dict[str, Any]:
    return {
        "unlisted": data["unlisted"],
        "invited": tuple((r["player"], r["name"], PENDING) for r in data["reserved"]),
        "reserved_until": data["reserved_until"],
        "open_when_lapsed": data["open_when_lapsed"],
        "rematch_of": data["rematch_of"],
        "claim_after_s": data["claim_after_s"],
    }


def _joined(record: Record, data: dict[str, Any], envelope: dict[str, Any]) -> dict[str, Any]:
    level = (data.get("computer") or {}).get("level")
    seat = Seat(data["seat"], data["player"], data["name"], level, data.get("commitment"))
    invited = _answer(record.invited, {data["player"]}, ACCEPTED)
    return {"seats": (*record.seats, seat), "invited": invited}


def _left(record: Record, data: dict[str, Any], envelope: dict[str, Any]) -> dict[str, Any]:
    """The seats after it move up one: seats stay 0..n-1."""
    kept = [s for s in record.seats if s.player != data["player"]]
    return {
        "seats": tuple(
            Seat(i, s.player, s.name, s.computer, s.commitment) for i, s in enumerate(kept)
        ),
        "invited": _answer(record.invited, {data["player"]}, DECLINED, ACCEPTED),
    }


def _lapsed(record: Record, data: dict[str, Any], envelope: dict[str, Any]) -> dict[str, Any]:
    changes: dict[str, Any] = {"invited": _answer(record.invited, set(data["players"]), LAPSED)}
    if data["listed"]:
        changes["unlisted"] = False
    return changes


def _ended(record: Record, data: dict[str, Any], envelope: dict[str, Any]) -> dict[str, Any]:
    return {
        "status": FINISHED,
        "result": data["result"],
        "seed": data["seed"],
        "owed_since": (),
        "owed_from": (),
        "extended": (),
    }


def _extended(record: Record, data: dict[str, Any], envelope: dict[str, Any]) -> dict[str, Any]:
    kept = tuple(e for e in record.extended if e[0] != data["key"])
    return {"extended": (*kept, (data["key"], data["new_deadline"]))}


def _taken(record: Record, data: dict[str, Any], envelope: dict[str, Any]) -> dict[str, Any]:
    """A substitute plays the seat from now on."""
    seat = data["seat"]
    return {
        "seats": tuple(
            Seat(s.seat, data["player"], data["name"]) if s.seat == seat else s
            for s in record.seats
        ),
        "resigned": record.resigned - {seat},
        "defaults_in_row": _count(record.defaults_in_row, seat, None),
    }


# how each of the table's events (events.catalog) changes the record: (record, data,
# envelope) -> the fields it changes; tests/events/test_catalog.py checks none is missing
TABLE_FOLDS: dict[str, Callable[[Record, dict[str, Any], dict[str, Any]], dict[str, Any]]] = {
    catalog.CREATED: _created,
    catalog.TERMS: _terms,
    catalog.PLAYER_JOINED: _joined,
    catalog.PLAYER_LEFT: _left,
    catalog.INVITATION_DECLINED: lambda r, d, e: {
        "invited": _answer(r.invited, {d["player"]}, DECLINED)
    },
    catalog.RESERVATIONS_LAPSED: _lapsed,
    catalog.CLAIMED: lambda r, d, e: {"claimed": True},
    catalog.CANCELLED: lambda r, d, e: {"status": CANCELLED},
    catalog.STARTED: lambda r, d, e: {
        "order": tuple(d["order"]),
        "status": ACTIVE,
        "defaults_in_row": (0,) * r.players,
    },
    catalog.ENDED: _ended,
    catalog.DECISION_TIMED_OUT: lambda r, d, e: {
        "defaults_in_row": _count(r.defaults_in_row, d["seat"], 1),
        "moved": r.moved | {d["seat"]},
    },
    catalog.SEAT_RESIGNED: lambda r, d, e: {
        "resigned": r.resigned | {d["seat"]},
        "moved": r.moved | {d["seat"]},
    },
    catalog.DEADLINE_EXTENDED: _extended,
    catalog.ABORTED: lambda r, d, e: {"aborted": True},
    catalog.SEAT_TAKEN: _taken,
    catalog.SEAT_AWAY: lambda r, d, e: {"away": (*r.away, (d["seat"], d["from"], d["until"]))},
    catalog.PAUSED: lambda r, d, e: {"paused_at": e["at"]},
    catalog.RESUMED: lambda r, d, e: {"paused_at": None},
    catalog.REVEALS_OPENED: lambda r, d, e: {"reveals_opened": e["at"]},
    catalog.SEED_REVEALED: lambda r, d, e: {"reveals": (*r.reveals, (d["seat"], d["secret"]))},
    catalog.SEEDS_COMBINED: lambda r, d, e: {"seeds_combined": True},
}


def _answer(
    invited: tuple[tuple[str, str, str], ...], players: set[str], answer: str, was: str = PENDING
) -> tuple[tuple[str, str, str], ...]:
    """Return `invited` with the answer of `players`' invitations in state `was` set."""
    return tuple((p, n, answer if p in players and a == was else a) for p, n, a in invited)


def _count(counts: tuple[int, ...], seat: int, add: int | None) -> tuple[int, ...]:
    """Return `counts` with the seat's count raised by `add`, or reset to 0 (None)."""
    if not 0 <= seat < len(counts):
        return counts
    return (*counts[:seat], 0 if add is None else counts[seat] + add, *counts[seat + 1 :])


def _owed_since(record: Record, owed: list[Owed], at: str) -> tuple[tuple[str, str], ...]:
    since = dict(record.owed_since)
    return tuple((o.key, since.get(o.key, at)) for o in owed)


def _owed_from(record: Record, owed: list[Owed], seq: int) -> tuple[tuple[str, int], ...]:
    since = dict(record.owed_from)
    return tuple((o.key, since.get(o.key, seq)) for o in owed)


def _visible(value: str | list[int]) -> str | tuple[int, ...]:
    return value if isinstance(value, str) else tuple(value)


def fold_all(record: Record, envelopes: list[dict[str, Any]]) -> Record:
    """Apply envelopes in order."""
    for env in envelopes:
        record = fold(record, env)
    return record


def in_order(public: list[dict[str, Any]], private: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return a game's public and private envelopes in the order they were decided: each
    private step right after the public event whose `seq` it keeps, in its own order."""
    return sorted([*public, *private], key=lambda e: (e["seq"], e.get("private", 0)))

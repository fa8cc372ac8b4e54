"""The time model of a game's log, checked by the audit and kept by the server.

Every envelope's `at` is the server's clock (UTC, milliseconds) when the command that
wrote it was appended; all envelopes of one command share it. Deadlines, and how late an
action may be, are the deadline rule's (`events.deadlines`), under the time model the game
was created with. docs/audit.md explains the model and its tolerance.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from events import catalog, deadlines
from events.codec import parse_time
from events.record import Record


def when(at: Any) -> datetime | None:
    """Return an envelope's time, or None if it is not an ISO 8601 UTC time."""
    try:
        moment = parse_time(at)
    except (TypeError, ValueError, AttributeError):
        return None
    return moment if moment.utcoffset() == timedelta(0) else None


def resigned(rec: Record) -> frozenset[int]:
    """Return the seats that resigned earlier in the log (their defaults apply at once)."""
    return frozenset(getattr(rec, "resigned", ()) or ())


@dataclass
class Clock:
    """What the time check remembers while the audit replays a log: the problems found
    (event seq, what is wrong), the last time seen, each phase's last submission. Actions
    are judged by the tolerances of the game's time model (events.deadlines.TIME_MODELS)."""

    problems: list[tuple[int, str]] = field(default_factory=list)
    last: datetime | None = None
    submitted: dict[str, tuple[int, datetime]] = field(default_factory=dict)
    unknown_model: bool = False  # said once: the game names a time model not known here

    def order(self, events: list[dict[str, Any]]) -> None:
        """Check every time parses, never goes backwards, and is one per command."""
        first_at = None
        for env in events:
            seq, moment = env.get("seq"), when(env.get("at"))
            if moment is None:
                self.problems.append((seq, f"event {seq}: {env.get('at')!r} is not a UTC time"))
                continue
            if "command" in env:
                first_at = moment
            elif first_at is not None and moment != first_at:
                self.problems.append(
                    (seq, f"event {seq}: dated {env['at']}, not at its command's time")
                )
            if self.last is not None and moment < self.last:
                when_before = self.last.isoformat().replace("+00:00", "Z")
                self.problems.append(
                    (
                        seq,
                        f"event {seq}: dated {env['at']}, before the event preceding it "
                        f"({when_before}): time went backwards",
                    )
                )
            self.last = max(moment, self.last) if self.last else moment

    def command(self, rec: Record, first: dict[str, Any]) -> None:
        """Check a command against the deadlines of the record folded before it."""
        cmd, seq, moment = first.get("command") or {}, first["seq"], when(first.get("at"))
        if moment is None:
            return
        if deadlines.tolerance(rec) is None and not self.unknown_model:
            self.unknown_model = True
            self.problems.append(
                (seq, f"the game's time model {rec.time_model!r} is not one this audit knows")
            )
        if cmd.get("type") == "act" and isinstance(first.get("actor"), int):
            seat, model = first["actor"], deadlines.tolerance(rec)
            if model and (late := deadlines.overdue(rec, seat, moment, model.stamp_slack)):
                key, deadline = late
                allowed = (model.grace + model.stamp_slack).seconds
                self.problems.append(
                    (
                        seq,
                        f"event {seq}: seat {seat} acted at {first['at']}, after its "
                        f"deadline {deadline} for {key!r} (plus {allowed} s allowed)",
                    )
                )
            for owed in rec.owed():
                if owed.seat == seat and owed.simultaneous:
                    self.submitted[owed.key] = (seq, moment)
        if cmd.get("type") == "claim" and (when(cmd.get("at")) or moment) > moment:
            self.problems.append((seq, f"event {seq}: a claim dated after its own append"))
        if cmd.get("type") == "release" and rec.reserved_until:
            if moment < parse_time(rec.reserved_until):
                self.problems.append(
                    (seq, f"event {seq}: reservations lapsed before {rec.reserved_until}")
                )
        if cmd.get("type") == "resolve":
            last = self.submitted.get(cmd.get("key"))
            if last and moment < last[1]:
                self.problems.append(
                    (
                        seq,
                        f"event {seq}: phase {cmd.get('key')!r} resolved at {first['at']}, "
                        f"before its last submission (event {last[0]})",
                    )
                )

    def event(self, rec: Record, env: dict[str, Any]) -> None:
        """Check one event against the record folded up to it: no early default."""
        if env.get("type") != catalog.DECISION_TIMED_OUT:
            return
        seq, data, moment = env["seq"], env.get("data") or {}, when(env.get("at"))
        deadline = rec.deadline(data.get("key", ""))
        if moment is None or data.get("seat") in resigned(rec):
            return
        if deadline is None:
            self.problems.append(
                (seq, f"event {seq}: a default for {data.get('key')!r} without a deadline")
            )
        elif moment < parse_time(deadline):
            self.problems.append(
                (
                    seq,
                    f"event {seq}: the default for seat {data.get('seat')} was applied at "
                    f"{env['at']}, before its deadline {deadline}",
                )
            )

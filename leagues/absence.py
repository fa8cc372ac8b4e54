"""Withdrawal for absence, counted as a person would count it. Pure: no I/O, no clock.

A member's decisions across their league games, in time order, are marks (time, whether
the decision was a default). The member is absent (docs/leagues.md, "Absence") when any
of the league's tests says so:
- **in a row**: their last `withdraw_after_timeouts` decisions were all defaults;
- **share**: of their last `absence_window` decisions (once they have had that many), at
  least `absence_share` were defaults (6 of the last 10, with the defaults);
- **days**: they have had a decision defaulted and made no move of their own for
  `absence_days` days (counted from their last own move, or their first decision if
  they never moved), not counting days of a declared vacation.
A test set to 0 is off.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

DAY = 86400.0
Mark = tuple[float, bool]  # (Unix time of the decision, defaulted)


def absent(
    marks: Sequence[Mark],
    rule: Mapping[str, Any],
    now: float,
    away: Sequence[tuple[float, float]] = (),
) -> str | None:
    """Return why the member is absent under `rule` (the league's settings) at `now`, in
    words, or None. `away`: the member's vacations, (start, end) Unix times."""
    marks = sorted(marks)
    if not marks or not marks[-1][1]:
        return None  # only a default can make a member absent
    in_a_row = rule.get("withdraw_after_timeouts") or 0
    streak = 0
    for _, defaulted in reversed(marks):
        if not defaulted:
            break
        streak += 1
    if in_a_row and streak >= in_a_row:
        return f"{streak} decisions in a row defaulted"
    window = rule.get("absence_window") or 0
    if window and len(marks) >= window:
        defaulted = sum(d for _, d in marks[-window:])
        if defaulted >= rule.get("absence_share", 1) * window:
            return f"{defaulted} of the last {window} decisions defaulted"
    days = rule.get("absence_days") or 0
    if days:
        moved = [t for t, d in marks if not d]
        since = moved[-1] if moved else marks[0][0]
        idle = now - since - overlap(since, now, away)
        if idle >= days * DAY:
            return f"no move of their own for {idle / DAY:.1f} days"
    return None


def overlap(start: float, end: float, spans: Sequence[tuple[float, float]]) -> float:
    """Return how many seconds of [start, end] the spans cover (spans do not overlap)."""
    return sum(max(0.0, min(end, b) - max(start, a)) for a, b in spans)

"""Why and how a game ends: the one definition the service writes and the audit checks.

A game ends (`game.Ended`, whose `result.reason` says why) when
- `completed`: its rules say it is over;
- `aborted`: an operator aborted it (`game.Aborted`); scored as it stands, if it started;
- `resigned`: every seat, or every seat but one, resigned (the one left would only play
  against defaults);
- `abandoned`: every seat that has not resigned let its last two decisions run out
  (deadline defaults, no action in time since), or a seat claimed an untimed game that
  sat idle (`game.Claimed`): scored as it stands (RULINGS.md).

Resigned seats are placed last, below every other seat whatever their scores; among
themselves they are placed by score (equal scores share a place). Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from events.record import ACTIVE, WAITING, Record

ABSENT_AFTER = 2  # deadline defaults in a row that make a seat absent


def reason(rec: Record) -> str | None:
    """Return why the game ends now, or None while it goes on (whatever its status)."""
    if rec.aborted:
        return "aborted"
    if rec.status == WAITING or rec.state is None:
        return None
    if rec.claimed:
        return "abandoned"
    if rec.game.is_over(rec.state):
        return "completed"
    if len(rec.resigned) >= rec.players - 1:
        return "resigned"
    playing = [s for s in range(rec.players) if s not in rec.resigned]
    counts = rec.defaults_in_row
    if counts and all(counts[s] >= ABSENT_AFTER for s in playing):
        return "abandoned"
    return None


def ends_now(rec: Record) -> bool:
    """Return True if an unfinished game must end right after this record."""
    return rec.status in (WAITING, ACTIVE) and reason(rec) is not None


def result(rec: Record, why: str) -> dict[str, Any]:
    """Return the result of a game ending for `why`: the game's standings as it stands,
    resigned seats placed last, `reason` and `resigned` added. A game's own reason for
    ending (GobCon's) moves to `end_reason`."""
    if rec.state is None:
        return {"standings": [], "winners": [], "reason": why, "resigned": []}
    out = rec.game.result(rec.state).to_json()
    if "reason" in out:
        out["end_reason"] = out.pop("reason")
    if rec.resigned:
        out["standings"] = _resigned_last(out["standings"], rec.resigned)
        out["winners"] = [s["seat"] for s in out["standings"] if s["place"] == 1]
    out["reason"], out["resigned"] = why, sorted(rec.resigned)
    return out


def _resigned_last(rows: list[dict[str, Any]], resigned: frozenset[int]) -> list[dict[str, Any]]:
    """Re-place the standings: the others keep their order and ties, resigned seats after
    them by score."""
    playing = [r for r in rows if r["seat"] not in resigned]
    gone = sorted((r for r in rows if r["seat"] in resigned), key=lambda r: -r["score"])
    out = []
    for r in playing:
        better = sum(1 for o in playing if o["place"] < r["place"])
        out.append({**r, "place": better + 1})
    for r in gone:
        better = sum(1 for o in gone if o["score"] > r["score"])
        out.append({**r, "place": len(playing) + better + 1})
    return out

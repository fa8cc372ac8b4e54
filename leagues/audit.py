"""Verify a league's export (`marketfold-league/1`) offline: its log's hash chain, the
service's signature, and its standings recounted from the log with the organizer's
rulings applied (leagues.rulings), compared with the standings the export states. Pure:
no I/O (the caller reads the file and the trusted keys).

Each recorded game names its own final hash in the league's log (`league.GameRecorded`:
`events`, `head`), so a game export checked with `marketfold verify` can be matched to
the result the league counted."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from events import keylog, signature, signed_dates
from events.audit import Check, Report, check_chain
from leagues import table
from leagues.record import League, fold_all

FORMAT = signature.LEAGUE_FORMAT
SHOWN = ("rank", "player", "name", "points", "games", "wins", "byes", "buchholz", "ordinal")
COMPARED = ("player", "rank", "points", "games", "wins", "byes", "buchholz", "mu", "sigma")


@dataclass
class LeagueReport(Report):
    """A game's report (events.audit.Report) of a league: `game_id` holds the league's id;
    with the rulings and the recounted standings."""

    rulings: list[dict[str, Any]] = field(default_factory=list)
    standings: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        return {
            "league": out.pop("game"),
            **out,
            "rulings": self.rulings,
            "standings": self.standings,
        }

    def to_text(self) -> str:
        lines = [f"league {self.game_id}: {self.events} events"]
        for c in self.checks:
            where = f" (event {c.seq})" if c.seq is not None else ""
            lines.append(f"  {'PASS' if c.ok else 'FAIL'} {c.name}{where}: {c.detail}")
        lines.append(f"rulings ({len(self.rulings)}):")
        for r in self.rulings:
            about = f" of dispute {r['dispute']}" if r.get("dispute") else ""
            more = r.get("points") or r.get("players") or r.get("replay") or ""
            lines.append(
                f"  #{r['ruling']} {r['game']} (round {r['round']}, table {r['table']}): "
                f"{r['kind']}{' ' + str(more) if more else ''}{about}, by {r['by']} at "
                f"{r['at']}: {r['reason']!r}"
            )
        lines.append("standings, recounted with the rulings:")
        lines.append("  " + "  ".join(SHOWN))
        for row in self.standings:
            lines.append("  " + "  ".join(str(row.get(k, "")) for k in SHOWN))
        lines.append("verified" if self.ok else "NOT verified")
        return "\n".join(lines)


def verify(
    data: Any, trusted: Mapping[str, Any] | None = None, windows: Mapping[str, Any] | None = None
) -> LeagueReport:
    """Check a league export: chain, signature (with `trusted` keys, dated inside its
    key's window when the keys' `windows` hold a rotation: events.keylog), standings."""
    events = data.get("events") if isinstance(data, dict) else None
    summary = data.get("league") if isinstance(data, dict) else None
    claimed = summary.get("id") if isinstance(summary, dict) else None
    report = LeagueReport(str(claimed or "?"), len(events) if isinstance(events, list) else 0)
    chain, signed = Check("hash chain"), Check(signature.CHECK)
    recount = Check("standings recounted with rulings")
    report.checks = [chain, signed, recount]
    if (
        data.get("format") != FORMAT
        or not isinstance(events, list)
        or not events
        or not all(isinstance(e, dict) for e in events)
    ):
        chain.fail(None, f"not a {FORMAT} export with events", code="not_a_bundle")
        for c in (signed, recount):
            c.fail(None, "not checked", code="unchecked_chain")
        return report
    check_chain(events, chain)
    if trusted:
        kid, detail = signature.check(data, trusted)
        report.signed_by = kid
        if kid is None:
            signed.fail(None, detail, code="not_signed")
        else:
            signed.detail = detail
        if keylog.rotated(windows or {}):
            dated = Check(signed_dates.CHECK)
            report.checks.append(dated)
            ok, found = signed_dates.check_bundle(data, windows or {})
            if ok:
                dated.detail = found
            else:
                dated.fail(None, found, code="key_out_of_window")
    else:
        signed.fail(
            None, "not checked: no trusted key given (--keys FILE or --server URL)", code="no_keys"
        )
    if not chain.ok:
        recount.fail(None, "not checked: the chain failed", code="unchecked_chain")
        return report
    try:
        league = fold_all(League(str(claimed)), events)
        rows = table.rows(league)
    except (KeyError, TypeError, ValueError) as e:
        recount.fail(
            None,
            f"the log does not fold into a league: {type(e).__name__} {e}",
            code="not_a_league",
        )
        return report
    report.rulings = [dict(r) for r in league.ruling_log]
    report.standings = rows
    stated = data.get("standings")
    applied = f"{len(league.ruling_log)} ruling(s) applied"
    if stated is None:
        recount.detail = f"{applied}; the export states no standings to compare"
    elif _comparable(stated) != _comparable(rows):
        recount.fail(
            None,
            f"{applied}; the export's standings differ: {_first_diff(stated, rows)}",
            code="standings_differ",
        )
    else:
        recount.detail = f"{applied}; the export's standings match the recount"
    return report


def _comparable(rows: Any) -> list[tuple[Any, ...]]:
    if not isinstance(rows, list):
        return []
    return [tuple(r.get(k) for k in COMPARED) if isinstance(r, dict) else () for r in rows]


def _first_diff(stated: Any, rows: list[dict[str, Any]]) -> str:
    mine, theirs = _comparable(rows), _comparable(stated)
    for i, (a, b) in enumerate(zip(theirs, mine)):
        if a != b:
            return f"row {i + 1}: the export says {list(a)}, the log gives {list(b)}"
    return f"the export has {len(theirs)} rows, the log gives {len(mine)}"

"""The audit's checks that need trusted keys (events.audit.verify with `trusted`): the
service's signature (events.signature), the game's leaves in the public log of games
(events.transparency), and a tree head or receipt seen before."""

from __future__ import annotations

from events import signature, transparency
from events.report import Check, Report


def run(data, trusted, seen, consistency, report: Report) -> None:
    """The checks that need trusted keys: the signature, the public log, a head seen."""
    signed, logged = Check(signature.CHECK), Check(transparency.CHECK)
    report.checks += [signed, logged]
    report.signed_by, found = signature.check(data, trusted)
    if report.signed_by is None:
        signed.fail(None, found)
    else:
        signed.detail = found
    events = data.get("events") or []
    ok, found = transparency.check_leaves(events, data.get("transparency"), trusted)
    if not ok:
        logged.fail(None, found)
        return
    logged.detail = found
    if seen is not None:
        before = Check(transparency.SEEN)
        report.checks.append(before)
        ok, found = transparency.check_seen(
            events, data["transparency"], seen, consistency, trusted
        )
        if ok:
            before.detail = found
        else:
            before.fail(None, found)

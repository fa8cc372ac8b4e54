"""The audit's checks that need trusted keys (events.audit.verify with `trusted`): the
service's signature (events.signature), the game's leaves in the public log of games
(events.transparency), and a tree head or receipt seen before (a kept receipt's
promise: events.receipts)."""

from __future__ import annotations

from events import keylog, log_checks, receipts, signature, signed_dates
from events.report import Check, Report


def run(data, trusted, seen, consistency, report: Report, windows=None) -> None:
    """The checks that need trusted keys: the signature, the public log, a head seen, and
    with `windows` (events.keylog: the keys' history) each signature's date."""
    signed, logged = Check(signature.CHECK), Check(log_checks.CHECK)
    report.checks += [signed, logged]
    if keylog.rotated(windows or {}):
        _record(
            report, Check(signed_dates.CHECK), _dated(data, seen, windows), code="key_out_of_window"
        )
    report.signed_by, found = signature.check(data, trusted)
    if report.signed_by is None:
        signed.fail(None, found, code="not_signed")
    else:
        signed.detail = found
    events = data.get("events") or []
    if isinstance(seen, dict) and "promise" in seen:  # a receipt kept at the game's end
        _record(
            report,
            Check(receipts.PROMISED),
            receipts.check_promise(events, seen["promise"], trusted),
            code="promise_broken",
        )
    ok, found = log_checks.check_leaves(events, data.get("transparency"), trusted)
    if not ok:
        logged.fail(None, found, code="not_logged")
        return
    logged.detail = found
    if isinstance(seen, dict) and ("tree_head" in seen or "size" in seen):
        proof = data["transparency"]
        if "promise" in seen and consistency is None:  # a kept receipt, offline
            found = receipts.check_kept(events, proof, seen, trusted)
        else:
            found = log_checks.check_seen(events, proof, seen, consistency, trusted)
        _record(report, Check(log_checks.SEEN), found, code="head_not_seen")


def _dated(data, seen, windows) -> tuple[bool, str]:
    """The bundle's signatures, and a kept receipt's promise, inside their keys' windows."""
    ok, found = signed_dates.check_bundle(data, windows)
    promise = seen.get("promise") if isinstance(seen, dict) else None
    if isinstance(promise, dict) and isinstance(promise.get("signature"), dict):
        kid = promise["signature"].get("kid")
        why = signed_dates.dated(kid, promise.get("at"), windows, "the kept receipt's promise")
        if why:
            return False, why if ok else f"{found}; {why}"
    return ok, found


def _record(report: Report, check: Check, outcome: tuple[bool, str], *, code: str) -> None:
    report.checks.append(check)
    ok, found = outcome
    if ok:
        check.detail = found
    else:
        check.fail(None, found, code=code)

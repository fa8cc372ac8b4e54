"""Proof that a bundle is the service's: the export signed, the published keys, the check.

`events.signature` says what a signature covers; `service.keyring` keeps the keys. The
server's own `POST /v1/verify` trusts every key it publishes, so a bundle it never signed
(or one changed after signing) is reported as such, never as verified.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from events import audit, codec, log_checks, signature
from service import key_history, metrics, transparency
from service import keyring as service_keyring
from service.keyring import Keyring

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def keyring(boot: Bootstrap) -> Keyring:
    """Return the service's keyring (service.keyring.of)."""
    return service_keyring.of(boot.config)


def sign(boot: Bootstrap, bundle: dict[str, Any]) -> dict[str, Any]:
    """Return `bundle` with the service's signature."""
    key = key_history.active_key(boot)
    bundle["signature"] = signature.sign(bundle, key, _dated(boot, key, bundle))
    metrics.SIGNATURES.inc()
    return bundle


def _dated(boot: Bootstrap, key: Any, bundle: dict[str, Any]) -> str:
    """The signature's date: its last event's time, or the signing key's first moment if
    that is later (a key logged after the game ended). Not the time of the request, so
    that every download of a finished game's export is the same bytes."""
    events = bundle.get("events") or []
    last = events[-1].get("at") if events and isinstance(events[-1], dict) else None
    window = key_history.windows(boot).get(signature.key_id(key.public_key()))
    times = [t for t in (last, window.not_before if window else None) if isinstance(t, str)]
    return max(times, key=lambda t: codec.parse_time(t)) if times else codec.now_iso()


def published(boot: Bootstrap) -> dict[str, Any]:
    """Return the service's public keys as a JWK Set (the active one and the retired)."""
    return key_history.published(boot)


STORED = "the same as this server's log"


def verify(boot: Bootstrap, data: Any) -> dict[str, Any]:
    """Return the audit's report on `data`, trusting the keys this service publishes; a
    bundle of a game this server holds is also compared with the stored log and with the
    leaves of this server's public log, naming where they differ."""
    report = audit.verify(data, keyring(boot).public(), windows=key_history.windows(boot))
    if differs := transparency.compare(boot, data):
        logged = next(c for c in report.checks if c.name == log_checks.CHECK)
        logged.fail(None, differs, code="not_logged")
    events = data.get("events") or []
    game_id = ((events[0].get("data") or {}).get("game_id")) if events else None
    stored = boot.store.read(game_id) if isinstance(game_id, str) and game_id else []
    if stored:
        same = audit.Check(STORED)
        report.checks.append(same)
        _compare(events, stored, same)
    return report.to_json()


def _compare(events: list[Any], stored: list[dict[str, Any]], check: audit.Check) -> None:
    """Name the first event where a bundle and the stored log differ (by their hashes,
    which redaction keeps), or where one of them stops."""
    for mine, kept in zip(events, stored, strict=False):
        if not isinstance(mine, dict) or mine.get("hash") != kept["hash"]:
            seq = kept["seq"]
            what = "" if not isinstance(mine, dict) else _field(mine, kept)
            return check.fail(
                seq, f"event {seq} differs from this server's log{what}", code="differs_from_server"
            )
    if len(events) != len(stored):
        return check.fail(
            min(len(events), len(stored)) + 1,
            f"the bundle has {len(events)} events, this server's log {len(stored)}",
            code="count_differs",
        )
    check.detail = f"every one of the {len(stored)} events is the one this server logged"


def _field(mine: dict[str, Any], kept: dict[str, Any]) -> str:
    for key in ("type", "actor", "at", "data", "command", "visible_to", "cause", "draws"):
        if key in kept and key in mine and mine[key] != kept[key]:
            return f" ({key}: the bundle says {_short(mine[key])}, the log {_short(kept[key])})"
    return " (its hash)"


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."

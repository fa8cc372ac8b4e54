"""Proof that a bundle is the service's: the export signed, the published keys, the check.

`events.signature` says what a signature covers; `service.keyring` keeps the keys. The
server's own `POST /v1/verify` trusts every key it publishes, so a bundle it never signed
(or one changed after signing) is reported as such, never as verified.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from events import audit, signature
from events import transparency as events_transparency
from service import transparency
from service.keyring import Keyring

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def keyring(boot: Bootstrap) -> Keyring:
    return Keyring(boot.config["SIGNING_KEY_DIR"])


def sign(boot: Bootstrap, bundle: dict[str, Any]) -> dict[str, Any]:
    """Return `bundle` with the service's signature."""
    bundle["signature"] = signature.sign(bundle, keyring(boot).active())
    return bundle


def published(boot: Bootstrap) -> dict[str, Any]:
    """Return the service's public keys as a JWK Set (the active one and the retired)."""
    return keyring(boot).jwks()


def verify(boot: Bootstrap, data: Any) -> dict[str, Any]:
    """Return the audit's report on `data`, trusting the keys this service publishes,
    and comparing its leaves with the ones this server's public log holds."""
    report = audit.verify(data, keyring(boot).public())
    if differs := transparency.compare(boot, data):
        logged = next(c for c in report.checks if c.name == events_transparency.CHECK)
        logged.fail(None, differs)
    return report.to_json()

"""Signed tokens in links a player opens without logging in: the one-click unsubscribe
of an e-mail (RFC 8058) and the verification of an address. `itsdangerous` (Flask's own
signing library) does the HMAC and the timestamps; the key is random, made once and kept
in Redis (`mf:notify:secret`) so every API and worker process shares it."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from itsdangerous import BadSignature, URLSafeSerializer, URLSafeTimedSerializer

from events import notify_keys

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

VERIFY_MAX_AGE_S = 7 * 24 * 3600  # a verification link works for a week
_secrets: dict[int, bytes] = {}


def _secret(boot: Bootstrap) -> bytes:
    found = _secrets.get(id(boot.redis))
    if found is None:
        boot.redis.set(notify_keys.notify_secret(), secrets.token_hex(32), nx=True)
        found = _secrets[id(boot.redis)] = boot.redis.get(notify_keys.notify_secret())
    return found


def sign(boot: Bootstrap, purpose: str, data: Any) -> str:
    """A token of `data` for `purpose` ("unsubscribe" or "verify")."""
    if purpose == "verify":
        return URLSafeTimedSerializer(_secret(boot), salt=purpose).dumps(data)
    return URLSafeSerializer(_secret(boot), salt=purpose).dumps(data)


def unsign(boot: Bootstrap, purpose: str, token: str) -> Any | None:
    """The data of a token signed for `purpose`, or None (forged, altered, expired)."""
    try:
        if purpose == "verify":
            serializer = URLSafeTimedSerializer(_secret(boot), salt=purpose)
            return serializer.loads(token, max_age=VERIFY_MAX_AGE_S)
        return URLSafeSerializer(_secret(boot), salt=purpose).loads(token)
    except BadSignature:
        return None

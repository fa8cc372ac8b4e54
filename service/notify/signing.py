"""Signed tokens in links a player opens without logging in: the one-click unsubscribe
of an e-mail (RFC 8058) and the verification of an address. `itsdangerous` (Flask's own
signing library) does the HMAC and the timestamps; the key is random, made once and kept
by the link key port (stores/link_key.py) so every API and worker process shares it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from itsdangerous import BadSignature, URLSafeSerializer, URLSafeTimedSerializer

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

VERIFY_MAX_AGE_S = 7 * 24 * 3600  # a verification link works for a week


def sign(boot: Bootstrap, purpose: str, data: Any) -> str:
    """A token of `data` for `purpose` ("unsubscribe" or "verify")."""
    if purpose == "verify":
        return URLSafeTimedSerializer(boot.link_key.key(), salt=purpose).dumps(data)
    return URLSafeSerializer(boot.link_key.key(), salt=purpose).dumps(data)


def unsign(boot: Bootstrap, purpose: str, token: str) -> Any | None:
    """The data of a token signed for `purpose`, or None (forged, altered, expired)."""
    try:
        if purpose == "verify":
            serializer = URLSafeTimedSerializer(boot.link_key.key(), salt=purpose)
            return serializer.loads(token, max_age=VERIFY_MAX_AGE_S)
        return URLSafeSerializer(boot.link_key.key(), salt=purpose).loads(token)
    except BadSignature:
        return None

"""A push service endpoint on loopback (RFC 8030), for the Web Push channel's tests: it
takes a browser's place too, holding the subscription's private key and auth secret, so it
can decrypt each message (RFC 8291, with `http_ece`, the library pywebpush encrypts with)
and check the VAPID token (RFC 8292) independently of the sender's library."""

from __future__ import annotations

import base64
import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from tests.notify.receivers import loopback


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def check_vapid(header: str, audience: str, server_key: str) -> dict[str, Any]:
    """Check an `Authorization: vapid t=<JWT>,k=<key>` header: the key is the server's,
    the ES256 signature holds, `aud` is the push service's origin, `exp` is within 24 h
    and `sub` is a contact. Return the claims; raise AssertionError otherwise."""
    scheme, _, params = header.partition(" ")
    assert scheme == "vapid", header
    parts = dict(p.split("=", 1) for p in params.split(","))
    assert parts["k"] == server_key, (
        f"signed with another key ({parts['k']}) than GET /v1/push/key gives ({server_key})"
    )
    head, claims, signature = parts["t"].split(".")
    assert json.loads(unb64(head)) == {"typ": "JWT", "alg": "ES256"}
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(parts["k"]))
    raw = unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:]))
    try:
        key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature as e:
        raise AssertionError("the VAPID token's signature does not hold") from e
    decoded = json.loads(unb64(claims))
    assert decoded["aud"] == audience, decoded
    assert time.time() < decoded["exp"] <= time.time() + 24 * 3600, decoded
    assert decoded["sub"].startswith(("mailto:", "https:")), decoded
    return decoded


@dataclass
class Delivered:
    path: str
    headers: dict[str, str]
    payload: Any  # the decrypted body, parsed as JSON
    claims: dict[str, Any]


@dataclass
class PushService:
    server_key: str = ""  # the applicationServerKey the subscription was made with
    status: int = 201
    delivered: list[Delivered] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    origin: str = ""
    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self, name: str = "browser-1") -> dict[str, Any]:
        """The PushSubscription.toJSON() a browser would hand the page."""
        point = self.private_key.public_key().public_bytes(
            Encoding.X962, PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": f"{self.origin}/wpush/{name}",
            "expirationTime": None,
            "keys": {"p256dh": b64(point), "auth": b64(self.auth)},
        }

    def receive(self, path: str, headers: dict[str, str], body: bytes) -> int:
        try:
            claims = check_vapid(headers["Authorization"], self.origin, self.server_key)
            assert headers["Content-Encoding"] == "aes128gcm", headers
            assert int(headers["TTL"]) >= 0, headers
            plain = http_ece.decrypt(
                body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm"
            )
            self.delivered.append(Delivered(path, headers, json.loads(plain), claims))
        except Exception as e:  # kept for the test to show
            self.errors.append(f"{type(e).__name__}: {e}")
            return 400
        return self.status


@contextmanager
def push_service(**options: Any) -> Iterator[PushService]:
    """A PushService listening on 127.0.0.1 for the block."""
    service = PushService(**options)

    def answer(path: str, headers: dict[str, str], body: bytes) -> tuple[int, dict[str, str]]:
        status = service.receive(path, headers, body)
        return status, {"Location": f"{service.origin}/message/{len(service.delivered)}"}

    with loopback(answer) as origin:
        service.origin = origin
        yield service

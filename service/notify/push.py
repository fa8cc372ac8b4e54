"""Web Push: notifications shown by the player's browser while no marketfold page is open.

The browser subscribes with the service's VAPID public key (`GET /v1/push/key`, RFC 8292)
and hands over its PushSubscription (an endpoint URL at its push service, and the keys
`p256dh` and `auth`); `POST /v1/players/me/push-subscriptions` keeps it. A delivery
encrypts the payload for that subscription (RFC 8291, `aes128gcm`, with `pywebpush`'s
WebPusher, which uses `http_ece`), signs a VAPID token for the push service's origin
(`py_vapid`), and POSTs it to the endpoint (RFC 8030) through service.notify.outbound, the
endpoint being an address a player gave like a webhook URL. The payload is what the
notification shows and nothing more: `{"title", "body", "url", "id"}`. 404 or 410 from
the push service means the subscription is gone (the browser dropped it): it is deleted.

The VAPID key pair is made once, by the first process that needs it, and kept in
VAPID_KEY_DIR (`marketfold serve`: `<data>/vapid`) as `private_key.pem`; every process of
one service must share it, and it must not change while subscriptions made with its public
key are to keep working (a browser subscribed under another key gets 403 from its push
service, and must subscribe again).

Storage: the push port (stores/push.py, `boot.push`): each player's subscriptions.
"""

from __future__ import annotations

import base64
import hashlib
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)
from py_vapid import Vapid02
from pywebpush import WebPusher

from events import codec
from service.errors import Conflict, Invalid, NotFound
from service.keyring import locked, write_private
from service.notify import outbound, types
from service.notify.message import Message, Outcome, Target
from stores import push as store

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

NAME = "push"
MAX_SUBSCRIPTIONS = 20  # per player (browsers and devices)
KEY_FILE = "private_key.pem"
TTL_S = 24 * 3600  # how long a push service keeps a message for an offline browser
TOKEN_S = 12 * 3600  # a VAPID token's lifetime (RFC 8292: at most 24 h)


# --- the VAPID key pair


def vapid(boot: Bootstrap) -> Vapid02:
    """The service's VAPID key pair, made (once, under the directory's lock) if missing."""
    directory = Path(boot.config["VAPID_KEY_DIR"])
    path = directory / KEY_FILE
    if not path.exists():
        with locked(directory):
            if not path.exists():
                key = ec.generate_private_key(ec.SECP256R1())
                pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
                write_private(path, pem)
    return Vapid02.from_pem(path.read_bytes())


def public_key(boot: Bootstrap) -> str:
    """The applicationServerKey a browser subscribes with: the public key's uncompressed
    point, base64url without padding."""
    point = vapid(boot).public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return _b64(point)


# --- what a player manages (api/push.py)


def subscribe(boot: Bootstrap, player_id: str, sub: dict[str, Any]) -> tuple[dict, bool]:
    """Keep a browser's subscription; return it and whether it is new (the same endpoint
    subscribed again is the same subscription, its keys renewed)."""
    endpoint = sub["endpoint"]
    try:
        outbound.resolve(endpoint, outbound.Policy.of(boot.config))
    except outbound.Refused as e:
        raise Invalid(
            "url_refused", f"this endpoint cannot be used: {e}", errors={"endpoint": [str(e)]}
        ) from None
    p256dh, auth = sub["keys"]["p256dh"], sub["keys"]["auth"]
    _check_keys(p256dh, auth)
    sub_id = "ps_" + hashlib.sha256(endpoint.encode()).hexdigest()[:20]
    old = boot.push.subscription(player_id, sub_id)
    if old is None and boot.push.count(player_id) >= MAX_SUBSCRIPTIONS:
        raise Conflict(
            "too_many_push_subscriptions",
            f"at most {MAX_SUBSCRIPTIONS} push subscriptions; delete one first",
        )
    record = {
        "id": sub_id,
        "endpoint": endpoint,
        "keys": {"p256dh": p256dh, "auth": auth},
        "created": old["created"] if old else codec.now_iso(),
    }
    boot.push.keep(player_id, record)
    return public(record), old is None


def listed(boot: Bootstrap, player_id: str) -> list[dict[str, Any]]:
    """The player's subscriptions, oldest first (endpoints, not keys)."""
    return [public(r) for r in boot.push.subscriptions(player_id)]


def unsubscribe(boot: Bootstrap, player_id: str, sub_id: str) -> None:
    """Forget a subscription."""
    if not boot.push.forget(player_id, sub_id):
        raise NotFound("push_subscription_not_found", f"no push subscription {sub_id!r}")


def public(record: dict[str, Any]) -> dict[str, Any]:
    """A subscription as its owner sees it: its id, push service and when it was made."""
    return {"id": record["id"], "endpoint": record["endpoint"], "created": record["created"]}


# --- the channel (service.notify.message.Channel)


class PushChannel:
    name = NAME

    def read(self, pipe: Any, player_id: str) -> None:
        store.read_subscriptions(pipe, player_id)

    def targets(
        self, boot: Bootstrap, player_id: str, type_: str, stored: Any = None
    ) -> list[Target]:
        """Every browser the player subscribed (which types go by push is the player's
        preferences' business, decided by the dispatcher)."""
        if stored is None:
            records = boot.push.subscriptions(player_id)
        else:
            records = store.subscriptions_from(stored)
        return [Target(NAME, r["id"], {"endpoint": r["endpoint"]}) for r in records]

    def send(self, boot: Bootstrap, target: Target, message: Message) -> tuple[Outcome, str]:
        """Encrypt the notification for the subscription and POST it to its endpoint."""
        record = boot.push.subscription(message.player, target.id)
        if record is None:
            return Outcome.REFUSED, "the subscription was deleted"
        endpoint = record["endpoint"]
        body = WebPusher({"endpoint": endpoint, "keys": record["keys"]}).encode(
            payload(message), "aes128gcm"
        )["body"]
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(endpoint))
        claims = {"aud": origin, "exp": int(time.time()) + TOKEN_S, "sub": _subject(boot)}
        headers = {
            **vapid(boot).sign(claims),
            "TTL": str(TTL_S),
            "Urgency": "high" if types.is_turn(message.type) else "normal",
            # a retry replaces the same notification still waiting at the push service
            "Topic": _b64(hashlib.sha256(message.id.encode()).digest())[:32],
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
        }
        try:
            answer = outbound.post(endpoint, body, headers, outbound.Policy.of(boot.config))
        except outbound.Refused as e:
            return Outcome.REFUSED, f"refused: {e}"
        except OSError as e:
            return Outcome.RETRY, str(e) or type(e).__name__
        detail = f"HTTP {answer.status}"
        if 200 <= answer.status < 300:
            return Outcome.SENT, detail
        if answer.status in (404, 410):
            return Outcome.GONE, detail
        if answer.status == 429 or answer.status >= 500:
            return Outcome.RETRY, detail
        return Outcome.REFUSED, detail  # 400, 401/403 (VAPID), 413: the same again fails

    def record(
        self,
        boot: Bootstrap,
        target: Target,
        message: Message,
        outcome: Outcome,
        detail: str,
        attempt: int,
        final: bool,
    ) -> None:
        """A subscription the push service no longer knows is deleted."""
        if outcome is Outcome.GONE:
            boot.push.forget(message.player, target.id)


CHANNEL = PushChannel()


def payload(message: Message) -> bytes:
    """What the service worker receives (api/static/sw.js): what it shows, where a click
    leads, and the id (the notification's tag, so a second delivery replaces the first)."""
    doc = {"title": message.title, "body": message.body, "url": message.url, "id": message.id}
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode()


def _subject(boot: Bootstrap) -> str:
    return str(boot.config["VAPID_SUBJECT"])


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _check_keys(p256dh: str, auth: str) -> None:
    try:
        point = _unb64(p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        if len(point) != 65:
            raise ValueError
    except (ValueError, TypeError):
        raise Invalid(
            "invalid_body",
            "keys.p256dh is not a P-256 public key",
            errors={"keys.p256dh": ["an uncompressed P-256 point (65 bytes), base64url"]},
        ) from None
    try:
        secret = _unb64(auth)
    except (ValueError, TypeError):
        secret = b""
    if len(secret) != 16:
        raise Invalid(
            "invalid_body",
            "keys.auth is not a 16-byte secret",
            errors={"keys.auth": ["16 bytes, base64url"]},
        )

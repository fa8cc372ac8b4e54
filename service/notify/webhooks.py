"""Webhooks: a player's programs told of their notifications by signed HTTP POSTs. This
module holds what a player manages (api/webhooks.py); their delivery is
service/notify/webhook_delivery.py.

A player registers up to MAX_WEBHOOKS URLs, each with the notification types it wants (none
named: every type). Each delivery is signed as the Standard Webhooks specification says
(https://www.standardwebhooks.com), with its `standardwebhooks` library (the reference
implementation, so a bot verifies with the same code on its side): headers `webhook-id`
(the notification's id: the same on every retry, so a second delivery is recognisable),
`webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of
"id.timestamp.body">`, and a second one with the previous secret for a day after a
rotation). The body is the notification as JSON: its fields (`Message.data`) with `id`,
`type`, `at` and `url`.

Every request goes through service.notify.outbound (no private or loopback address, no
redirect followed, a deadline, a bounded answer); the URL is checked when registered and
again at each delivery. The dispatcher retries a failed attempt (Outcome.RETRY) with
backoff; WEBHOOK_DISABLE_AFTER failed attempts in a row disable the webhook, and the
player is told so in their inbox. A success resets the count.

Storage: the webhooks port (stores/webhooks.py, `boot.webhooks`): the records (the
secret included), each one's failed attempts in a row, and its delivery log (the newest
DELIVERIES_KEPT attempts, newest first).
"""

from __future__ import annotations

import base64
import secrets
import time
from typing import TYPE_CHECKING, Any

from events import codec
from service.errors import Conflict, Invalid, NotFound
from service.notify import outbound
from service.notify import types as catalog
from service.notify import webhook_delivery as delivery
from service.notify.message import Message, Target

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

MAX_WEBHOOKS = 10  # per player
MAX_TYPES = 50
ROTATE_OVERLAP_S = 24 * 3600  # the previous secret signs too for this long after a rotation
SECRET_PREFIX = "whsec_"
SECRET_BYTES = 32  # Standard Webhooks: 24 to 64 random bytes


def new_secret() -> str:
    """A fresh signing secret in the Standard Webhooks form: `whsec_` + base64."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


# --- what a player manages (api/webhooks.py)


def create(boot: Bootstrap, player_id: str, url: str, types: list[str] | None) -> dict[str, Any]:
    """Register a webhook; return it with its secret (shown this once)."""
    url, types = _check_url(boot, url), _check_types(types or [])
    if boot.webhooks.count(player_id) >= MAX_WEBHOOKS:
        raise Conflict("too_many_webhooks", f"at most {MAX_WEBHOOKS} webhooks; delete one first")
    now = codec.now_iso()
    record = {
        "id": "wh_" + secrets.token_hex(8),  # no "-": part of a delivery job's id
        "url": url,
        "types": types,
        "enabled": True,
        "disabled_reason": None,
        "created": now,
        "updated": now,
        "secret": new_secret(),
    }
    boot.webhooks.keep(player_id, record)
    return {**public(record, 0), "secret": record["secret"]}


def listed(boot: Bootstrap, player_id: str) -> list[dict[str, Any]]:
    """The player's webhooks (no secrets), oldest first."""
    fails = boot.webhooks.failures(player_id)
    return [public(r, fails.get(r["id"], 0)) for r in boot.webhooks.endpoints(player_id)]


def shown(boot: Bootstrap, player_id: str, webhook_id: str) -> dict[str, Any]:
    """One of the player's webhooks (no secret)."""
    record = _load(boot, player_id, webhook_id)
    return public(record, boot.webhooks.failures(player_id).get(webhook_id, 0))


def update(boot: Bootstrap, player_id: str, webhook_id: str, changes: dict[str, Any]):
    """Change a webhook's url, types or `enabled`; enabling it again clears its failures."""
    record = _load(boot, player_id, webhook_id)
    if "url" in changes:
        record["url"] = _check_url(boot, changes["url"])
    if "types" in changes:
        record["types"] = _check_types(changes["types"] or [])
    if "enabled" in changes:
        record["enabled"] = bool(changes["enabled"])
        record["disabled_reason"] = None if record["enabled"] else "by the player"
    record["updated"] = codec.now_iso()
    boot.webhooks.keep(player_id, record, clear_failures=record["enabled"])
    return shown(boot, player_id, webhook_id)


def delete(boot: Bootstrap, player_id: str, webhook_id: str) -> None:
    """Forget a webhook and its delivery log; a delivery planned for it is then refused."""
    _load(boot, player_id, webhook_id)
    boot.webhooks.forget(player_id, webhook_id)


def rotate(boot: Bootstrap, player_id: str, webhook_id: str) -> dict[str, Any]:
    """Give a webhook a new secret (returned this once); the previous one still signs
    beside it for ROTATE_OVERLAP_S, so a receiver can switch without missing a delivery."""
    record = _load(boot, player_id, webhook_id)
    record["previous"] = {"secret": record["secret"], "until": time.time() + ROTATE_OVERLAP_S}
    record["secret"] = new_secret()
    record["updated"] = codec.now_iso()
    boot.webhooks.keep(player_id, record)
    return {"id": webhook_id, "secret": record["secret"], "previous_until": _iso_until(record)}


def deliveries(boot: Bootstrap, player_id: str, webhook_id: str) -> list[dict[str, Any]]:
    """The webhook's newest delivery attempts, newest first."""
    _load(boot, player_id, webhook_id)
    return boot.webhooks.deliveries(webhook_id, delivery.DELIVERIES_KEPT)


def ping(boot: Bootstrap, player_id: str, webhook_id: str, home: str) -> dict[str, Any]:
    """Send a `ping` to the webhook now (disabled or not), log it, and return the attempt.
    A ping's failure does not count towards disabling the webhook."""
    record = _load(boot, player_id, webhook_id)
    message = Message(
        id="ping_" + secrets.token_urlsafe(12),
        player=player_id,
        type="ping",
        lang="en",
        title="ping",
        body="A test delivery asked for by the webhook's owner.",
        url=home,
        at=codec.now_iso(),
        data={"webhook": webhook_id},
    )
    target = Target(delivery.NAME, webhook_id, {"url": record["url"]})
    outcome, detail = delivery.deliver(boot, record, message)
    return delivery.log(boot, target, message, outcome, detail, attempt=1)


def public(record: dict[str, Any], failures: int) -> dict[str, Any]:
    """A webhook as its owner sees it after creation: no secret."""
    out = {k: record[k] for k in ("id", "url", "types", "enabled", "disabled_reason")}
    out.update(failures=failures, created=record["created"], updated=record["updated"])
    if _iso_until(record):
        out["previous_secret_until"] = _iso_until(record)
    return out


# --- records


def _check_url(boot: Bootstrap, url: Any) -> str:
    try:
        outbound.resolve(url, outbound.Policy.of(boot.config))
    except outbound.Refused as e:
        raise Invalid("url_refused", f"this URL cannot be used: {e}", errors={"url": [str(e)]})
    return url


def _check_types(types: list[Any]) -> list[str]:
    if len(types) > MAX_TYPES:
        raise Invalid("invalid_body", "too many types", errors={"types": [f"at most {MAX_TYPES}"]})
    for t in types:
        if t not in catalog.NAMES:
            raise Invalid(
                "unknown_type", f"no notification type {t!r}", errors={"types": [f"{t!r}"]}
            )
    return list(dict.fromkeys(types))


def _load(boot: Bootstrap, player_id: str, webhook_id: str) -> dict[str, Any]:
    record = boot.webhooks.endpoint(player_id, webhook_id)
    if record is None:
        raise NotFound("webhook_not_found", f"no webhook {webhook_id!r}")
    return record


def _iso_until(record: dict[str, Any]) -> str | None:
    prev = record.get("previous")
    return codec.iso(prev["until"]) if prev and prev["until"] > time.time() else None

"""The webhook channel (service.notify.message.Channel): a notification POSTed, signed as
Standard Webhooks says (service/notify/webhooks.py tells how), to each of the player's
enabled webhooks that wants its type, through service.notify.outbound; every attempt is
kept in the webhook's delivery log, and a run of WEBHOOK_DISABLE_AFTER failures disables
the webhook and tells its player."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from standardwebhooks import Webhook

from events import codec
from service.notify import inbox, outbound
from service.notify.message import Message, Outcome, Target
from stores import webhooks as store

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

NAME = "webhook"
DELIVERIES_KEPT = 100  # per webhook
STATUS = re.compile(r"^HTTP (\d{3})\b")  # a detail that starts with the answer's status


class WebhookChannel:
    name = NAME

    def read(self, pipe: Any, player_id: str) -> None:
        store.read_endpoints(pipe, player_id)

    def targets(
        self, boot: Bootstrap, player_id: str, type_: str, stored: Any = None
    ) -> list[Target]:
        """The player's enabled webhooks that want `type_`."""
        if stored is None:
            records = boot.webhooks.endpoints(player_id)
        else:
            records = store.endpoints_from(stored)
        return [
            Target(NAME, r["id"], {"url": r["url"]})
            for r in records
            if r["enabled"] and (not r["types"] or type_ in r["types"])
        ]

    def send(self, boot: Bootstrap, target: Target, message: Message) -> tuple[Outcome, str]:
        """POST the signed notification to the webhook as it is now (its URL and secret
        read again: it may have changed, been disabled or deleted since it was planned)."""
        record = boot.webhooks.endpoint(message.player, target.id)
        if record is None:
            return Outcome.REFUSED, "the webhook was deleted"
        if not record["enabled"]:
            return Outcome.REFUSED, "the webhook is disabled"
        return deliver(boot, record, message)

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
        """Log the attempt; count failures in a row, and disable the webhook (telling the
        player) when they reach WEBHOOK_DISABLE_AFTER."""
        log(boot, target, message, outcome, detail, attempt)
        if detail in ("the webhook was deleted", "the webhook is disabled"):
            return
        if outcome is Outcome.SENT:
            boot.webhooks.clear_failures(message.player, target.id)
            return
        run = boot.webhooks.count_failure(message.player, target.id)
        if run == int(boot.config["WEBHOOK_DISABLE_AFTER"]):  # once: the run counts past it
            _disable(boot, message.player, target.id, run, detail)


CHANNEL = WebhookChannel()


# --- delivery


def body_of(message: Message) -> bytes:
    """The JSON a webhook receives: the notification's fields, its id, type, time and link."""
    doc = {**message.data, "id": message.id, "type": message.type, "at": message.at}
    doc["url"] = message.url
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode()


def signed_headers(record: dict[str, Any], message: Message, body: bytes) -> dict[str, str]:
    """The Standard Webhooks headers of one delivery (one signature per live secret)."""
    now = datetime.now(UTC)
    secrets_ = [record["secret"]]
    if (prev := record.get("previous")) and prev["until"] > now.timestamp():
        secrets_.append(prev["secret"])
    text = body.decode()
    signatures = " ".join(Webhook(s).sign(message.id, now, text) for s in secrets_)
    return {
        "Content-Type": "application/json",
        "User-Agent": "marketfold-webhooks",
        "webhook-id": message.id,
        "webhook-timestamp": str(int(now.timestamp())),
        "webhook-signature": signatures,
    }


def deliver(boot: Bootstrap, record: dict[str, Any], message: Message) -> tuple[Outcome, str]:
    """POST the signed notification to the webhook `record`; return the outcome."""
    body = body_of(message)
    policy = outbound.Policy.of(boot.config)
    try:
        answer = outbound.post(record["url"], body, signed_headers(record, message, body), policy)
    except outbound.Refused as e:
        return Outcome.REFUSED, f"refused: {e}"
    except OSError as e:
        return Outcome.RETRY, str(e) or type(e).__name__
    if 200 <= answer.status < 300:
        return Outcome.SENT, f"HTTP {answer.status}"
    return Outcome.RETRY, f"HTTP {answer.status}"


def log(
    boot: Bootstrap,
    target: Target,
    message: Message,
    outcome: Outcome,
    detail: str,
    attempt: int,
) -> dict[str, Any]:
    """Keep the attempt in the webhook's delivery log (its newest DELIVERIES_KEPT)."""
    status = STATUS.match(detail)
    entry = {
        "id": message.id,
        "type": message.type,
        "attempt": attempt,
        "status": str(outcome),
        "response_code": int(status.group(1)) if status else None,
        "detail": detail[:300],
        "at": codec.now_iso(),
    }
    boot.webhooks.log_delivery(target.id, entry, DELIVERIES_KEPT)
    return entry


def _disable(boot: Bootstrap, player_id: str, webhook_id: str, run: int, detail: str) -> None:
    record = boot.webhooks.endpoint(player_id, webhook_id)
    if record is None:
        return
    record["enabled"] = False
    record["disabled_reason"] = f"{run} failed deliveries in a row (last: {detail[:200]})"
    record["updated"] = codec.now_iso()
    boot.webhooks.keep(player_id, record)
    _tell(boot, player_id, {"type": "webhook_disabled", "webhook": webhook_id, "failures": run})


def _tell(boot: Bootstrap, player_id: str, note: dict[str, Any]) -> None:
    """Notify the player (inbox, and their channels as they chose: never the disabled
    webhook itself, which no longer has targets)."""
    inbox.emit(boot, player_id, note)

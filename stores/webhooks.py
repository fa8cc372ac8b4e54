"""The webhooks port: each player's webhooks (their records, the signing secret included),
each webhook's failed deliveries in a row, and each webhook's delivery log (its newest
attempts, newest first). Records and log entries are plain dicts, kept as given.

Redis keys (events.notify_keys): `mf:player:<id>:webhooks` (id -> JSON record),
`mf:player:<id>:webhooks:failures` (id -> count), `mf:webhook:<id>:deliveries` (a capped
list of JSON)."""

from __future__ import annotations

import json
from typing import Any, Protocol

import redis

from events import notify_keys
from stores.records import oldest_first


class WebhookStore(Protocol):
    def count(self, player_id: str) -> int:
        """How many webhooks the player has."""

    def endpoints(self, player_id: str) -> list[dict[str, Any]]:
        """The player's webhook records, oldest first (by their `created`)."""

    def endpoint(self, player_id: str, webhook_id: str) -> dict[str, Any] | None:
        """One of the player's webhook records, or None."""

    def keep(self, player_id: str, record: dict[str, Any], clear_failures: bool = False) -> None:
        """Store `record` under its `id` (replacing it); with `clear_failures`, forget its
        failures in a row in the same write."""

    def forget(self, player_id: str, webhook_id: str) -> None:
        """Drop the webhook, its failures and its delivery log, in one write."""

    def failures(self, player_id: str) -> dict[str, int]:
        """Each webhook's failed deliveries in a row (those with none left out)."""

    def count_failure(self, player_id: str, webhook_id: str) -> int:
        """Count one more failure in a row; return the run so far (it counts on past any
        limit: the caller acts when it reaches it, once)."""

    def clear_failures(self, player_id: str, webhook_id: str) -> None:
        """The run of failures ends (a delivery succeeded)."""

    def log_delivery(self, webhook_id: str, entry: dict[str, Any], kept: int) -> None:
        """Add an attempt to the webhook's log, keeping only its newest `kept`."""

    def deliveries(self, webhook_id: str, limit: int) -> list[dict[str, Any]]:
        """The webhook's newest `limit` logged attempts, newest first."""


def read_endpoints(pipe: Any, player_id: str) -> None:
    """Queue on a Redis pipeline the read of the player's webhooks (one round trip shared
    with the other channels' reads: service/notify/recipient.py); `endpoints_from` reads
    its answer."""
    pipe.hgetall(notify_keys.player_webhooks(player_id))


def endpoints_from(raw: dict[bytes, bytes]) -> list[dict[str, Any]]:
    """The records `read_endpoints` read, oldest first."""
    return oldest_first(raw.values())


class RedisWebhooks:
    def __init__(self, client: redis.Redis) -> None:
        self.r = client

    def count(self, player_id: str) -> int:
        return int(self.r.hlen(notify_keys.player_webhooks(player_id)))

    def endpoints(self, player_id: str) -> list[dict[str, Any]]:
        return endpoints_from(self.r.hgetall(notify_keys.player_webhooks(player_id)))

    def endpoint(self, player_id: str, webhook_id: str) -> dict[str, Any] | None:
        raw = self.r.hget(notify_keys.player_webhooks(player_id), webhook_id)
        return None if raw is None else json.loads(raw)

    def keep(self, player_id: str, record: dict[str, Any], clear_failures: bool = False) -> None:
        if not clear_failures:
            self.r.hset(notify_keys.player_webhooks(player_id), record["id"], json.dumps(record))
            return
        pipe = self.r.pipeline()
        pipe.hset(notify_keys.player_webhooks(player_id), record["id"], json.dumps(record))
        pipe.hdel(notify_keys.player_webhook_failures(player_id), record["id"])
        pipe.execute()

    def forget(self, player_id: str, webhook_id: str) -> None:
        pipe = self.r.pipeline()
        pipe.hdel(notify_keys.player_webhooks(player_id), webhook_id)
        pipe.hdel(notify_keys.player_webhook_failures(player_id), webhook_id)
        pipe.delete(notify_keys.webhook_deliveries(webhook_id))
        pipe.execute()

    def failures(self, player_id: str) -> dict[str, int]:
        raw = self.r.hgetall(notify_keys.player_webhook_failures(player_id))
        return {k.decode(): int(v) for k, v in raw.items()}

    def count_failure(self, player_id: str, webhook_id: str) -> int:
        return int(self.r.hincrby(notify_keys.player_webhook_failures(player_id), webhook_id, 1))

    def clear_failures(self, player_id: str, webhook_id: str) -> None:
        self.r.hdel(notify_keys.player_webhook_failures(player_id), webhook_id)

    def log_delivery(self, webhook_id: str, entry: dict[str, Any], kept: int) -> None:
        pipe = self.r.pipeline(transaction=False)
        pipe.lpush(notify_keys.webhook_deliveries(webhook_id), json.dumps(entry))
        pipe.ltrim(notify_keys.webhook_deliveries(webhook_id), 0, kept - 1)
        pipe.execute()

    def deliveries(self, webhook_id: str, limit: int) -> list[dict[str, Any]]:
        raw = self.r.lrange(notify_keys.webhook_deliveries(webhook_id), 0, limit - 1)
        return [json.loads(r) for r in raw]

"""The Web Push port: each player's browser subscriptions (service/notify/push.py), as
plain dict records under their id (`ps_...`). (The VAPID key pair is a file in
VAPID_KEY_DIR, shared by every process like the signing keys: not kept here.)

Redis key (events.notify_keys): `mf:player:<id>:push` (subscription id -> JSON record)."""

from __future__ import annotations

import json
from typing import Any, Protocol

import redis

from events import notify_keys
from stores.records import oldest_first


class PushStore(Protocol):
    def count(self, player_id: str) -> int:
        """How many subscriptions the player has."""

    def subscriptions(self, player_id: str) -> list[dict[str, Any]]:
        """The player's subscription records, oldest first (by their `created`)."""

    def subscription(self, player_id: str, sub_id: str) -> dict[str, Any] | None:
        """One of the player's subscription records, or None."""

    def keep(self, player_id: str, record: dict[str, Any]) -> None:
        """Store `record` under its `id` (replacing it)."""

    def forget(self, player_id: str, sub_id: str) -> bool:
        """Drop a subscription; return whether there was one."""


def read_subscriptions(pipe: Any, player_id: str) -> None:
    """Queue on a Redis pipeline the read of the player's subscriptions (one round trip
    shared with the other channels' reads: service/notify/recipient.py);
    `subscriptions_from` reads its answer."""
    pipe.hgetall(notify_keys.player_push(player_id))


def subscriptions_from(raw: dict[bytes, bytes]) -> list[dict[str, Any]]:
    """The records `read_subscriptions` read, oldest first."""
    return oldest_first(raw.values())


class RedisPush:
    def __init__(self, client: redis.Redis) -> None:
        self.r = client

    def count(self, player_id: str) -> int:
        return int(self.r.hlen(notify_keys.player_push(player_id)))

    def subscriptions(self, player_id: str) -> list[dict[str, Any]]:
        return subscriptions_from(self.r.hgetall(notify_keys.player_push(player_id)))

    def subscription(self, player_id: str, sub_id: str) -> dict[str, Any] | None:
        raw = self.r.hget(notify_keys.player_push(player_id), sub_id)
        return None if raw is None else json.loads(raw)

    def keep(self, player_id: str, record: dict[str, Any]) -> None:
        self.r.hset(notify_keys.player_push(player_id), record["id"], json.dumps(record))

    def forget(self, player_id: str, sub_id: str) -> bool:
        return bool(self.r.hdel(notify_keys.player_push(player_id), sub_id))

"""What the notification steps keep (service.notify.dispatch): when each step is due,
the lease of a delivery being sent, the mark of one that ended, its attempts so far,
how far the daily digest told, and each player's short log of delivery attempts.

A step is a member `<job>|<subject>|<key>` (service.ports.due_member) of one of two due
sets, decisions owed (`turn`) and the others, scored by when it falls due; the workers
(workers.notifier) claim and run them. Steps staged with a note (service.notify.inbox.
stage) are written by the note's writes (stores.inbox), not here.

Keys (events.keys, events.notify_keys): `mf:notify:turns|due:{mf:deadlines}` (sorted
sets), `mf:notify:sending:<note>:<channel>:<target>` (a lease that expires),
`mf:notify:done:<note>:<channel>:<target>` (the outcome), `mf:notify:attempts:<note>` (hash:
`<channel>-<target>-<player>` -> attempts), `mf:player:<id>:notify:digest` (a feed id),
`mf:player:<id>:notify:log` (a capped list of JSON, newest first).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

import redis

from events import keys, notify_keys

# one delivery: (note id, channel, target id, `<channel>-<target>-<player>`, its step's key)
Delivery = tuple[str, str, str, str]


@dataclass(frozen=True)
class Due:
    """A step to run at `when` (epoch s): `turn` a decision owed's (run first); with
    `only_new`, a step planned already keeps its time."""

    member: str
    when: float
    turn: bool = False
    only_new: bool = False


class NotifyOutboxStore(Protocol):
    def plan(self, steps: list[Due]) -> None:
        """Have each step run at its time (a step planned already moves, unless only_new)."""

    def unplan(self, member: str) -> None:
        """Forget a step (one not of a decision owed)."""

    def planned(self, member: str) -> float | None:
        """When a step is due, or None if it is not planned."""

    def lease(self, delivery: Delivery, hold_s: int) -> bool:
        """Hold a delivery for `hold_s` seconds; False if someone holds it now."""

    def attempted(
        self, delivery: Delivery, keep_s: int, ended: str | None, retry: Due | None
    ) -> None:
        """After an attempt: count it, mark the delivery `ended` (its outcome) if it was
        the last, or plan its `retry`, and let go of its lease; kept `keep_s` seconds."""

    def ended(self, delivery: Delivery) -> str | None:
        """The outcome a delivery ended with, or None while it has not."""

    def tried(self, delivery: Delivery) -> int:
        """How many attempts a delivery has had."""

    def digest_mark(self, player_id: str) -> str | None:
        """The feed id up to which the player's digest told (None: no digest yet)."""

    def mark_digest(self, player_id: str, feed_id: str) -> None:
        """Remember that the digest told up to `feed_id`."""

    def log(self, player_id: str, entry: dict[str, Any], keep: int) -> None:
        """Keep a delivery attempt in the player's log (the newest `keep` only)."""

    def logged(self, player_id: str) -> list[dict[str, Any]]:
        """The player's logged delivery attempts, newest first."""


class RedisNotifyOutbox:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def plan(self, steps: list[Due]) -> None:
        if not steps:
            return
        pipe = self.redis.pipeline(transaction=False)
        for step in steps:
            pipe.zadd(keys.notify_due(step.turn), {step.member: step.when}, nx=step.only_new)
        pipe.execute()

    def unplan(self, member: str) -> None:
        self.redis.zrem(keys.notify_due(), member)

    def planned(self, member: str) -> float | None:
        pipe = self.redis.pipeline(transaction=False)
        for turn in (True, False):
            pipe.zscore(keys.notify_due(turn), member)
        return next((w for w in pipe.execute() if w is not None), None)

    def lease(self, delivery: Delivery, hold_s: int) -> bool:
        lease = notify_keys.notify_sending(*delivery[:3])
        return bool(self.redis.set(lease, "1", nx=True, ex=hold_s))

    def attempted(
        self, delivery: Delivery, keep_s: int, ended: str | None, retry: Due | None
    ) -> None:
        attempts = notify_keys.notify_attempts(delivery[0])
        pipe = self.redis.pipeline(transaction=False)
        pipe.hincrby(attempts, delivery[3], 1)
        pipe.expire(attempts, keep_s)
        if ended is not None:
            pipe.set(notify_keys.notify_done(*delivery[:3]), ended, ex=keep_s)
        elif retry is not None:
            pipe.zadd(keys.notify_due(retry.turn), {retry.member: retry.when}, nx=retry.only_new)
        pipe.delete(notify_keys.notify_sending(*delivery[:3]))
        pipe.execute()

    def ended(self, delivery: Delivery) -> str | None:
        got = self.redis.get(notify_keys.notify_done(*delivery[:3]))
        return got.decode() if got is not None else None

    def tried(self, delivery: Delivery) -> int:
        return int(self.redis.hget(notify_keys.notify_attempts(delivery[0]), delivery[3]) or 0)

    def digest_mark(self, player_id: str) -> str | None:
        got = self.redis.get(notify_keys.player_digest(player_id))
        return got.decode() if got is not None else None

    def mark_digest(self, player_id: str, feed_id: str) -> None:
        self.redis.set(notify_keys.player_digest(player_id), feed_id)

    def log(self, player_id: str, entry: dict[str, Any], keep: int) -> None:
        pipe = self.redis.pipeline(transaction=False)
        pipe.lpush(notify_keys.player_notify_log(player_id), json.dumps(entry))
        pipe.ltrim(notify_keys.player_notify_log(player_id), 0, keep - 1)
        pipe.execute()

    def logged(self, player_id: str) -> list[dict[str, Any]]:
        raw = self.redis.lrange(notify_keys.player_notify_log(player_id), 0, -1)
        return [json.loads(r) for r in raw]

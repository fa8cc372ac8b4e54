"""The link key port: the one random key that signs the links a player opens without
signing in (an e-mail's one-click unsubscribe, an address's verification:
service/notify/signing.py). The first process to ask makes it; every process of the
service then reads the same one, so a link made by one is good at all.

Redis key (events.notify_keys): `mf:notify:secret` (set once, never replaced)."""

from __future__ import annotations

import secrets
from typing import Protocol

import redis

from events import notify_keys


class LinkKeyStore(Protocol):
    def key(self) -> bytes:
        """The service's link-signing key: made (random) by the first caller, the same
        for every later one."""


class RedisLinkKey:
    def __init__(self, client: redis.Redis) -> None:
        self.r = client
        self.known: bytes | None = None  # read once per process: it never changes

    def key(self) -> bytes:
        if self.known is None:
            self.r.set(notify_keys.notify_secret(), secrets.token_hex(32), nx=True)
            self.known = self.r.get(notify_keys.notify_secret())
        return self.known

"""The bearer tokens' port (service.tokens): each token's record under the hash of its
secret (what a request needs: the player, the token's id, when its use was last
recorded; the secret itself is never kept), and each player's list of tokens with when
each was created and last used.

A record is kept as the exact bytes service.tokens wrote: the append's script and the
rate limiter (service.admission, service.limits) compare and read those bytes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

import redis

from events import keys


@dataclass(frozen=True)
class Issued:
    """A token to keep: its record (JSON) under `digest`, listed as `token_id` of
    `player_id`, created at `created` (ISO)."""

    digest: str
    player_id: str
    token_id: str
    record: str
    created: str


@dataclass(frozen=True)
class Listed:
    """One of a player's live tokens as listed: never its secret."""

    token_id: str
    created: str
    last_used: str | None


class TokenStore(Protocol):
    def issue(self, token: Issued) -> None:
        """Keep a new token: its record and its line in the player's list."""

    def count(self, player_id: str) -> int:
        """How many live tokens the player has."""

    def record(self, digest: str) -> bytes | None:
        """The record kept under a token's digest, as stored, or None."""

    def replace(self, digest: str, record: str) -> bool:
        """Replace a token's record if the token is still kept (a revoked one stays
        revoked); return True if it was."""

    def record_use(
        self,
        digest: str,
        record: str,
        player_id: str,
        token_id: str,
        at: str,
        listed: str | None = None,
    ) -> None:
        """Record that a token was used at `at`: its record is replaced (if still kept)
        and its `last used` set. A token issued before tokens had ids is first listed
        (unless it is already) as created at `listed`."""

    def listed(self, player_id: str) -> list[Listed]:
        """The player's live tokens (in no particular order)."""

    def digest_of(self, player_id: str, token_id: str) -> str | None:
        """The digest of the player's token `token_id`, or None if it has none."""

    def digests(self, player_id: str) -> list[str]:
        """The digests of every live token of the player."""

    def revoke(self, player_id: str, token_id: str, digest: str) -> None:
        """Forget a token: its record, its list entry and when it was used."""


def stage_issue(pipe: Any, token: Issued) -> None:
    """Queue the writes of `TokenStore.issue` on a redis-py pipeline (stores.players
    sends them with a new player's record)."""
    pipe.set(keys.token(token.digest), token.record)
    entry = json.dumps({"created": token.created, "hash": token.digest})
    pipe.hset(keys.player_tokens(token.player_id), token.token_id, entry)


class RedisTokens:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def issue(self, token: Issued) -> None:
        pipe = self.redis.pipeline(transaction=False)  # two slots in a cluster
        stage_issue(pipe, token)
        pipe.execute()

    def count(self, player_id: str) -> int:
        return int(self.redis.hlen(keys.player_tokens(player_id)))

    def record(self, digest: str) -> bytes | None:
        return self.redis.get(keys.token(digest))

    def replace(self, digest: str, record: str) -> bool:
        return bool(self.redis.set(keys.token(digest), record, xx=True))

    def record_use(
        self,
        digest: str,
        record: str,
        player_id: str,
        token_id: str,
        at: str,
        listed: str | None = None,
    ) -> None:
        pipe = self.redis.pipeline(transaction=False)
        if listed is not None:
            entry = json.dumps({"created": listed, "hash": digest})
            pipe.hsetnx(keys.player_tokens(player_id), token_id, entry)
        pipe.set(keys.token(digest), record, xx=True)
        pipe.hset(keys.player_tokens_used(player_id), token_id, at)
        pipe.execute()

    def listed(self, player_id: str) -> list[Listed]:
        pipe = self.redis.pipeline(transaction=False)
        pipe.hgetall(keys.player_tokens(player_id))
        pipe.hgetall(keys.player_tokens_used(player_id))
        entries, used = pipe.execute()
        out = []
        for raw_id, raw in entries.items():
            last = used.get(raw_id)
            created = json.loads(raw)["created"]
            out.append(Listed(raw_id.decode(), created, last.decode() if last else None))
        return out

    def digest_of(self, player_id: str, token_id: str) -> str | None:
        raw = self.redis.hget(keys.player_tokens(player_id), token_id)
        return json.loads(raw)["hash"] if raw is not None else None

    def digests(self, player_id: str) -> list[str]:
        return [json.loads(r)["hash"] for r in self.redis.hvals(keys.player_tokens(player_id))]

    def revoke(self, player_id: str, token_id: str, digest: str) -> None:
        pipe = self.redis.pipeline(transaction=False)
        pipe.delete(keys.token(digest))
        pipe.hdel(keys.player_tokens(player_id), token_id)
        pipe.hdel(keys.player_tokens_used(player_id), token_id)
        pipe.execute()

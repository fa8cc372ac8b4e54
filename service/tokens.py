"""Bearer tokens: issued, listed and revoked per player; stored only as hashes.

`mf:token:<sha256>` holds what a request needs ({id, name} of the player, the token's
id and when it was last recorded as used), so authentication is one GET. `last used` is
written back at most once a minute per token (`SET ... XX`, so a revoked token is never
brought back), pipelined with the player's token list.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from events import codec, keys
from service.errors import Conflict, NotFound, Unauthorized

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

# A token never starts with "-" (a command line would take it for an option), and its
# prefix lets secret scanners recognise a leaked one.
PREFIX = "mf_"
MAX_TOKENS = 20  # live tokens per player
USED_EVERY_S = 60  # `last used` is recorded at most this often


# The token records this process read last, by digest: {digest: (record as stored, the
# player, when its use was last recorded)}, for service.admission, whose append checks that
# the stored record is still the same (a revoked token is gone, so it is not).
KNOWN: OrderedDict[str, tuple[bytes, dict[str, Any], float]] = OrderedDict()
KNOWN_MAX = 4096


def known(digest: str) -> tuple[bytes, dict[str, Any]] | None:
    """Return (record as stored, player) of a token this process recognised lately, or
    None, also when its use is due to be recorded again (`recognise` writes that)."""
    entry = KNOWN.get(digest)
    if entry is None or time.time() - entry[2] >= USED_EVERY_S:
        return None
    return entry[0], entry[1]


def _remember(digest: str, raw: bytes, player: dict[str, Any], used: float) -> None:
    KNOWN[digest] = (raw, player, used)
    KNOWN.move_to_end(digest)
    while len(KNOWN) > KNOWN_MAX:
        KNOWN.popitem(last=False)


def hash_token(token: str) -> str:
    """Return the stored form of a bearer token."""
    return hashlib.sha256(token.encode()).hexdigest()


def issue(boot: Bootstrap, player_id: str, name: str, pipe: Any = None) -> dict[str, Any]:
    """Issue a new token for the player; return {id, token, created} (the secret once)."""
    token_id, token = "t_" + secrets.token_urlsafe(9), PREFIX + secrets.token_urlsafe(32)
    digest, created = hash_token(token), codec.now_iso()
    # `used` starts at issue time: the first use is recorded from a minute on
    record = {"id": player_id, "name": name, "token_id": token_id, "used": int(time.time())}
    run = pipe if pipe is not None else boot.redis.pipeline(transaction=False)
    run.set(keys.token(digest), json.dumps(record))
    entry = json.dumps({"created": created, "hash": digest})
    run.hset(keys.player_tokens(player_id), token_id, entry)
    if pipe is None:
        run.execute()
    return {"id": token_id, "token": token, "created": created}


def create(boot: Bootstrap, player: dict[str, Any]) -> dict[str, Any]:
    """Issue one more token to a caller, up to MAX_TOKENS live ones."""
    if boot.redis.hlen(keys.player_tokens(player["id"])) >= MAX_TOKENS:
        raise Conflict("too_many_tokens", f"at most {MAX_TOKENS} tokens; revoke one first")
    return issue(boot, player["id"], player["name"])


def authenticate(boot: Bootstrap, token: str) -> dict[str, Any] | None:
    """Return {id, name, token_id} of the token's player, or None (one GET; a write at
    most once a minute to record the use)."""
    digest = hash_token(token)
    return recognise(boot, digest, boot.redis.get(keys.token(digest)))


def recognise(boot: Bootstrap, digest: str, raw: bytes | None) -> dict[str, Any] | None:
    """Return {id, name, token_id} from the record stored under a token's digest (None:
    no such token), as `authenticate` does once it has read it (the rate limiter reads it
    in its own round trip)."""
    if not raw:
        return None
    key = keys.token(digest)
    record = json.loads(raw)
    if banned := record.get("banned"):  # service.moderation marks every token of a ban
        raise Unauthorized(
            "banned", f"the server's operators banned this account: {banned['reason']}"
        )
    player = {"id": record["id"], "name": record["name"]}
    token_id, now = record.get("token_id"), time.time()
    if now - record.get("used", 0) >= USED_EVERY_S:
        pipe = boot.redis.pipeline(transaction=False)
        if token_id is None:  # issued before tokens had ids: list it from now on
            token_id = "t_" + key.rsplit(":", 1)[-1][:12]
            entry = json.dumps({"created": codec.now_iso(), "hash": key.rsplit(":", 1)[-1]})
            pipe.hsetnx(keys.player_tokens(record["id"]), token_id, entry)
        record = {**record, "token_id": token_id, "used": int(now)}
        raw = json.dumps(record).encode()
        pipe.set(key, raw, xx=True)
        pipe.hset(keys.player_tokens_used(record["id"]), token_id, codec.now_iso())
        pipe.execute()
    player = {**player, "token_id": token_id}
    _remember(digest, raw, player, record.get("used", 0))
    return player


def listed(boot: Bootstrap, player_id: str, current: str | None) -> list[dict[str, Any]]:
    """Return the player's live tokens (never a secret), oldest first."""
    pipe = boot.redis.pipeline(transaction=False)
    pipe.hgetall(keys.player_tokens(player_id))
    pipe.hgetall(keys.player_tokens_used(player_id))
    entries, used = pipe.execute()
    out = []
    for raw_id, raw in entries.items():
        token_id = raw_id.decode()
        last = used.get(raw_id)
        out.append(
            {
                "id": token_id,
                "created": json.loads(raw)["created"],
                "last_used": last.decode() if last else None,
                "current": token_id == current,
            }
        )
    return sorted(out, key=lambda t: (t["created"], t["id"]))


def revoke(boot: Bootstrap, player_id: str, token_id: str) -> None:
    """Revoke one of the player's tokens at once: its next request is 401."""
    raw = boot.redis.hget(keys.player_tokens(player_id), token_id)
    if raw is None:
        raise NotFound("token_not_found", f"you have no token {token_id!r}")
    pipe = boot.redis.pipeline(transaction=False)
    pipe.delete(keys.token(json.loads(raw)["hash"]))
    pipe.hdel(keys.player_tokens(player_id), token_id)
    pipe.hdel(keys.player_tokens_used(player_id), token_id)
    pipe.execute()

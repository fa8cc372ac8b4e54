"""Bearer tokens: issued, listed and revoked per player; stored only as hashes.

`mf:token:<sha256>` holds what a request needs ({id, name} of the player, the token's
id and when it was last recorded as used), so authentication is one GET. `last used` is
written back at most once a minute per token (`SET ... XX`, so a revoked token is never
brought back), with the player's token list (stores.tokens).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from events import codec
from service.errors import Conflict, NotFound, Unauthorized
from stores.tokens import Issued

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


def issue(boot: Bootstrap, player_id: str, name: str) -> dict[str, Any]:
    """Issue a new token for the player; return {id, token, created} (the secret once)."""
    token, issued = new(player_id, name)
    boot.tokens.issue(issued)
    return {"id": issued.token_id, "token": token, "created": issued.created}


def new(player_id: str, name: str) -> tuple[str, Issued]:
    """Return a new token's secret and what is kept of it (stores.tokens.Issued)."""
    token_id, token = "t_" + secrets.token_urlsafe(9), PREFIX + secrets.token_urlsafe(32)
    # `used` starts at issue time: the first use is recorded from a minute on
    record = {"id": player_id, "name": name, "token_id": token_id, "used": int(time.time())}
    return token, Issued(
        hash_token(token), player_id, token_id, json.dumps(record), codec.now_iso()
    )


def create(boot: Bootstrap, player: dict[str, Any]) -> dict[str, Any]:
    """Issue one more token to a caller, up to MAX_TOKENS live ones."""
    if boot.tokens.count(player["id"]) >= MAX_TOKENS:
        raise Conflict("too_many_tokens", f"at most {MAX_TOKENS} tokens; revoke one first")
    return issue(boot, player["id"], player["name"])


def authenticate(boot: Bootstrap, token: str) -> dict[str, Any] | None:
    """Return {id, name, token_id} of the token's player, or None (one GET; a write at
    most once a minute to record the use)."""
    digest = hash_token(token)
    return recognise(boot, digest, boot.tokens.record(digest))


def recognise(boot: Bootstrap, digest: str, raw: bytes | None) -> dict[str, Any] | None:
    """Return {id, name, token_id} from the record stored under a token's digest (None:
    no such token), as `authenticate` does once it has read it (the rate limiter reads it
    in its own round trip)."""
    if not raw:
        return None
    record = json.loads(raw)
    if banned := record.get("banned"):  # service.moderation marks every token of a ban
        raise Unauthorized(
            "banned", f"the server's operators banned this account: {banned['reason']}"
        )
    player = {"id": record["id"], "name": record["name"]}
    token_id, now = record.get("token_id"), time.time()
    if now - record.get("used", 0) >= USED_EVERY_S:
        listed = None
        if token_id is None:  # issued before tokens had ids: list it from now on
            token_id, listed = "t_" + digest[:12], codec.now_iso()
        record = {**record, "token_id": token_id, "used": int(now)}
        raw = json.dumps(record).encode()
        boot.tokens.record_use(
            digest, raw.decode(), record["id"], token_id, codec.now_iso(), listed
        )
    player = {**player, "token_id": token_id}
    _remember(digest, raw, player, record.get("used", 0))
    return player


def listed(boot: Bootstrap, player_id: str, current: str | None) -> list[dict[str, Any]]:
    """Return the player's live tokens (never a secret), oldest first."""
    out = [
        {
            "id": t.token_id,
            "created": t.created,
            "last_used": t.last_used,
            "current": t.token_id == current,
        }
        for t in boot.tokens.listed(player_id)
    ]
    return sorted(out, key=lambda t: (t["created"], t["id"]))


def revoke(boot: Bootstrap, player_id: str, token_id: str) -> None:
    """Revoke one of the player's tokens at once: its next request is 401."""
    digest = boot.tokens.digest_of(player_id, token_id)
    if digest is None:
        raise NotFound("token_not_found", f"you have no token {token_id!r}")
    boot.tokens.revoke(player_id, token_id, digest)

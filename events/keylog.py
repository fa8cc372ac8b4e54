"""Keys with a history: the service's signing keys, each valid for a window that the public
log of games fixes (docs/audit.md, "Keys with a history").

A rotation is a leaf of the log itself, of kind `key`:

    {"log": "marketfold-games/1", "kind": "key", "key": <kid>, "public": <base64url key>,
     "retires": <kid of the key it replaces, or null>, "at": <ISO time it was logged>}

The key a `key` leaf names is valid from that leaf on; the key it retires is valid until
it. So every key has a window of time (`not_before`, `not_after`) and of leaves: a tree
head or checkpoint it signs holds more leaves than its own `key` leaf's index (`first`)
and no more than its retiring leaf's index (`last`). The first key of a log that began
before rotations were logged has no leaf of its own: it is valid from the start.

A statement is dated: a tree head by its `at`; a bundle by its signature's `signed_at`
(rule 2) or, for one signed before that rule (rule 1, no `signed_at`), by its last event's
time. events/signed_dates.py names each statement dated outside its key's window.

Pure: the caller reads the leaves (or the published JWK Set) and passes them in.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature

from events import codec, signature
from events.transparency import LOG

KIND = "key"


@dataclass
class Window:
    """When and over which leaves one key may sign (None: unbounded on that side)."""

    kid: str
    not_before: str | None = None
    not_after: str | None = None
    first: int | None = None  # index of the key's own `key` leaf
    last: int | None = None  # index of the leaf that retired it

    def published(self) -> dict[str, Any]:
        """The window as `GET /v1/keys` publishes it on the key's JWK."""
        out = {"not_before": self.not_before, "not_after": self.not_after}
        return {**out, "first_leaf": self.first, "retired_leaf": self.last}


def rotated(windows: Mapping[str, Window]) -> bool:
    """Whether a history holds a rotation (else every key is valid at any date)."""
    return any(w.last is not None or w.first is not None for w in windows.values())


def leaf(public: Any, retires: Any, at: str, earlier: list[str] | None = None) -> dict[str, Any]:
    """The `key` leaf that makes `public` the active key, retiring `retires` (the retired
    private key, or None for the log's first key): the retired key endorses its successor
    (`endorsed`: its Ed25519 signature, base64url, over the leaf's canonical text without
    `endorsed`), so whoever trusts a key learns the next one from the log alone. The log's
    first `key` leaf lists instead the keys retired before rotations were logged
    (`earlier`): they were valid until it."""
    x = signature.jwk(public)["x"]
    old = signature.key_id(retires.public_key()) if retires is not None else None
    key = signature.key_id(public)
    body = {"log": LOG, "kind": KIND, "key": key, "public": x, "retires": old, "at": at}
    if retires is None:
        return {**body, "earlier": sorted(earlier or [])}
    value = retires.sign(codec.canonical(body).encode())
    return {**body, "endorsed": base64.urlsafe_b64encode(value).rstrip(b"=").decode()}


def learn(texts: list[str], trusted: Mapping[str, Any]) -> dict[str, Any]:
    """The keys that `key` leaves among `texts` make active, each endorsed by a key
    trusted or learned before it: {kid: public key}."""
    out: dict[str, Any] = {}
    for text in texts:
        found = parse(text)
        if found is None or found.get("retires") is None:
            continue
        old = out.get(found["retires"]) or trusted.get(found["retires"])
        body = {k: v for k, v in found.items() if k != "endorsed"}
        try:
            public = signature.from_jwk({"kty": "OKP", "crv": signature.ALG, "x": found["public"]})
            value = found["endorsed"]
            old.verify(
                base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)),
                codec.canonical(body).encode(),
            )
        except (AttributeError, KeyError, TypeError, ValueError, InvalidSignature):
            continue
        if signature.key_id(public) == found["key"]:
            out[found["key"]] = public
    return out


def leaf_id(kid: str) -> str:
    """The leaf id (events.tlog) of a key's `key` leaf: logged once per key."""
    return f"key:{kid}"


def history(texts: list[str], start: int = 0) -> dict[str, Window]:
    """Every key's window from the log's leaves (`texts`: leaves from index `start`)."""
    return history_of([(start + i, text) for i, text in enumerate(texts)])


def history_of(leaves: list[tuple[int, str]]) -> dict[str, Window]:
    """Every key's window from (index, text) of the log's `key` leaves (others skipped).
    The log's first key (a leaf retiring none) is valid from the log's start: it signed
    every statement made before rotations were logged."""
    out: dict[str, Window] = {}
    for index, text in sorted(leaves):
        found = parse(text)
        if found is None:
            continue
        kid, retires, at = found["key"], found.get("retires"), found["at"]
        if isinstance(retires, str):
            out.setdefault(kid, Window(kid, not_before=at, first=index))
            old = out.setdefault(retires, Window(retires))
            if old.last is None:
                old.not_after, old.last = at, index
        else:
            out.setdefault(kid, Window(kid))
            for old in found.get("earlier") or []:
                if isinstance(old, str):
                    out.setdefault(old, Window(old, not_after=at, last=index))
    return out


def parse(text: str) -> dict[str, Any] | None:
    """A `key` leaf's fields, or None if `text` is another leaf."""
    try:
        found = json.loads(text)
    except ValueError:
        return None
    if not isinstance(found, dict) or found.get("kind") != KIND or found.get("log") != LOG:
        return None
    if not isinstance(found.get("key"), str) or not isinstance(found.get("at"), str):
        return None
    return found


def from_jwks(jwks: Any) -> dict[str, Window]:
    """The windows a JWK Set publishes (`not_before`, `not_after`, `first_leaf`,
    `retired_leaf` on each key); keys without them have none."""
    out = {}
    for key in (jwks or {}).get("keys") or [] if isinstance(jwks, Mapping) else []:
        if not isinstance(key, Mapping) or not isinstance(key.get("kid"), str):
            continue
        if any(key.get(k) is not None for k in ("not_before", "not_after", "retired_leaf")):
            out[key["kid"]] = Window(
                key["kid"],
                _str(key.get("not_before")),
                _str(key.get("not_after")),
                _int(key.get("first_leaf")),
                _int(key.get("retired_leaf")),
            )
    return out


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None

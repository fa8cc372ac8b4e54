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
time. A statement is refused with a named finding when:

- `retired_key`: dated at or after its key's retirement;
- `key_not_yet_valid`: dated before its key's `key` leaf;
- `backdated`: dated inside its key's window but holding what came after it: a tree head
  or checkpoint holding the leaf that retired its key, or a bundle whose game's leaves
  lie at or after that leaf, or a bundle dated before its own game's end;
- `unlogged_key`: signed by a key the log never named while it holds rotations.

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
CHECK = "signed within its key's window"
RETIRED, NOT_YET, BACKDATED, UNLOGGED = (
    "retired_key",
    "key_not_yet_valid",
    "backdated",
    "unlogged_key",
)


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


def dated(kid: str, at: Any, windows: Mapping[str, Window], what: str) -> str | None:
    """Name why `what`, signed by `kid` and dated `at`, lies outside the key's window."""
    window = windows.get(kid)
    if window is None:
        if any(w.first is not None for w in windows.values()):
            return f"{UNLOGGED}: {what} is signed by key {kid}, which no key leaf of the log names"
        return None
    when = _time(at)
    if when is None:
        return f"{BACKDATED}: {what} signed by key {kid} carries no valid date ({at!r})"
    if window.not_after is not None and when >= codec.parse_time(window.not_after):
        return (
            f"{RETIRED}: {what} is dated {at}, but key {kid} was retired at "
            f"{window.not_after} (leaf {window.last}): a retired key signed it"
        )
    if window.not_before is not None and when < codec.parse_time(window.not_before):
        return (
            f"{NOT_YET}: {what} is dated {at}, before key {kid} became active at "
            f"{window.not_before} (leaf {window.first})"
        )
    return None


def sized(kid: str, size: int, windows: Mapping[str, Window], what: str) -> str | None:
    """Name why a tree head or checkpoint of `size` leaves cannot be `kid`'s: it holds the
    leaf that retired the key (backdated), or not yet the key's own leaf."""
    window = windows.get(kid)
    if window is None:
        return None
    if window.last is not None and size > window.last:
        return (
            f"{BACKDATED}: {what} holds {size} leaves, the rotation that retired key {kid} "
            f"(leaf {window.last}) among them, yet that key signed it: a retired key signed "
            "it later and dated it back"
        )
    if window.first is not None and size <= window.first:
        return (
            f"{NOT_YET}: {what} holds {size} leaves, not yet the leaf {window.first} that "
            f"made key {kid} active"
        )
    return None


def covers(kid: str, indexes: list[int], windows: Mapping[str, Window], what: str) -> str | None:
    """Name a statement by `kid` about leaves logged at or after the key's retirement."""
    window = windows.get(kid)
    late = [i for i in indexes if window and window.last is not None and i >= window.last]
    if not late or window is None:
        return None
    return (
        f"{BACKDATED}: {what} is signed by key {kid}, retired at leaf {window.last}, but its "
        f"game's leaf {max(late)} was logged after: a retired key signed it later"
    )


def bundle_date(bundle: Mapping[str, Any], said: Mapping[str, Any]) -> tuple[Any, str]:
    """A bundle's date and the rule that dates it: `signed_at` of its signed statement
    (rule 2), else its last event's time (rule 1: bundles signed before dates were)."""
    if "signed_at" in said:
        return said["signed_at"], "signed_at"
    events = bundle.get("events") or []
    last = events[-1] if events and isinstance(events[-1], Mapping) else {}
    return last.get("at"), "its last event's time"


def check_bundle(bundle: Mapping[str, Any], windows: Mapping[str, Window]) -> tuple[bool, str]:
    """Check that a bundle's signature and its tree head lie in their keys' windows."""
    found = []
    sig = bundle.get("signature")
    proof = bundle.get("transparency") if isinstance(bundle.get("transparency"), Mapping) else {}
    items = [i for i in proof.get("leaves") or [] if isinstance(i, Mapping)]
    indexes = [i["index"] for i in items if isinstance(i.get("index"), int)]
    if isinstance(sig, Mapping) and isinstance(sig.get("kid"), str):
        kid, said = sig["kid"], _said(sig)
        at, rule = bundle_date(bundle, said)
        what = f"the bundle's signature (dated by {rule})"
        why = dated(kid, at, windows, what) or covers(kid, indexes, windows, "the bundle")
        if why is None and rule == "signed_at":
            why = _before_end(bundle, at, kid)
        found += [why] if why else []
    head = proof.get("tree_head")
    hsig = head.get("signature") if isinstance(head, Mapping) else None
    if isinstance(hsig, Mapping) and isinstance(hsig.get("kid"), str):
        what = f"the bundle's tree head of {head.get('size')} leaves"
        why = dated(hsig["kid"], head.get("at"), windows, what)
        if why is None and isinstance(head.get("size"), int):
            why = sized(hsig["kid"], head["size"], windows, what)
        found += [why] if why else []
    if found:
        return False, "; ".join(found)
    kids = sorted({w.kid for w in windows.values()})
    return True, f"every signature lies in its key's window ({len(kids)} keys with a history)"


def _said(sig: Mapping[str, Any]) -> dict[str, Any]:
    try:
        said = json.loads(sig.get("statement") or "")
    except (TypeError, ValueError):
        return {}
    return said if isinstance(said, dict) else {}


def _before_end(bundle: Mapping[str, Any], at: Any, kid: str) -> str | None:
    events = bundle.get("events") or []
    last = events[-1] if events and isinstance(events[-1], Mapping) else {}
    when, end = _time(at), _time(last.get("at"))
    if when is None or end is None or when >= end:
        return None
    return (
        f"{BACKDATED}: key {kid} dated the bundle {at}, before its last event "
        f"({last.get('at')}): it was signed later and dated back"
    )


def _time(at: Any) -> Any:
    if not isinstance(at, str):
        return None
    try:
        return codec.parse_time(at)
    except (ValueError, TypeError):
        return None


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None

"""The service's signature on an exported bundle: what it covers, how it is made and checked.

A verified hash chain shows a log was not changed after it was written; it does not show
that the service wrote it. Once a game ends its seed is public, so anyone can relabel
another finished game as this one, recompute the commitment and rebuild the chain. The
export is therefore signed (Ed25519, from the maintained `cryptography` package) by a key
the service publishes at `GET /v1/keys`.

What is signed is a *statement*, carried in the bundle as the exact JSON text that was
signed (so a verifier in any language checks the signature over those bytes without
re-encoding anything), then compared field by field with the bundle:

    {"format": ..., "game": <the whole header: id, ruleset, rules version, status,
     options, decision timeout, league and round, every seat's player and name>,
     "events": <how many>, "head": <the last event's hash>, "seed": <the revealed seed>}

plus, for a bundle with private steps (docs/architecture.md, "Private steps"),
`"private": <how many>, "private_head": <the last step's hash>`.

The head hash commits to every event before it (each envelope's hash covers `prev`), so
with the chain checked, the signature covers every event, the seed commitment in the
first and the reveal in the last. The table chat lies outside (it is not play).

A league's export (`marketfold-league/1`) is signed the same way over
`{"format", "league": <its id>, "events", "head"}`: its log holds every member, round,
recorded game (each with its own final hash) and ruling, so the signature covers them.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from events import catalog, codec

ALG = "Ed25519"
LEAGUE_FORMAT = "marketfold-league/1"
CHECK = "signed by the service"


def key_id(public: Ed25519PublicKey) -> str:
    """Return a key's id: the first 16 hex digits of the SHA-256 of its raw public bytes."""
    return hashlib.sha256(raw(public)).hexdigest()[:16]


def raw(public: Ed25519PublicKey) -> bytes:
    return public.public_bytes(Encoding.Raw, PublicFormat.Raw)


def jwk(public: Ed25519PublicKey, **extra: Any) -> dict[str, Any]:
    """Return a public key as a JSON Web Key (RFC 8037: OKP, Ed25519)."""
    x = base64.urlsafe_b64encode(raw(public)).rstrip(b"=").decode()
    return {"kty": "OKP", "crv": ALG, "x": x, "kid": key_id(public), "alg": "EdDSA", **extra}


def from_jwk(key: Mapping[str, Any]) -> Ed25519PublicKey:
    """Return the public key of a JSON Web Key; ValueError if it is not an Ed25519 one."""
    if key.get("kty") != "OKP" or key.get("crv") != ALG or not isinstance(key.get("x"), str):
        raise ValueError("not an Ed25519 JSON Web Key (kty OKP, crv Ed25519, x)")
    x = key["x"]
    return Ed25519PublicKey.from_public_bytes(base64.urlsafe_b64decode(x + "=" * (-len(x) % 4)))


def keyset(jwks: Mapping[str, Any]) -> dict[str, Ed25519PublicKey]:
    """Return {kid: key} from a JWK Set (`GET /v1/keys`); ValueError if it is not one."""
    keys = jwks.get("keys") if isinstance(jwks, Mapping) else None
    if not isinstance(keys, list):
        raise ValueError('not a JWK Set: expected {"keys": [...]}')
    out = {}
    for key in keys:
        public = from_jwk(key)
        out[key_id(public)] = public
    return out


def statement(bundle: Mapping[str, Any]) -> dict[str, Any]:
    """Return what a signature on `bundle` states (see the module's text)."""
    events = bundle.get("events") or []
    last = events[-1] if events and isinstance(events[-1], dict) else {}
    if bundle.get("format") == LEAGUE_FORMAT:
        league = bundle.get("league")
        return {
            "format": LEAGUE_FORMAT,
            "league": league.get("id") if isinstance(league, dict) else None,
            "events": len(events),
            "head": last.get("hash"),
        }
    out = {
        "format": bundle.get("format"),
        "game": bundle.get("game"),
        "events": len(events),
        "head": last.get("hash"),
        # the seed revealed: the bundle's, else the one game.Ended carries (the audit's too)
        "seed": bundle.get("seed") or _ended_seed(last),
    }
    private = bundle.get("private") or []
    if private:  # a finished game's private log: its count and its last step's hash too
        step = private[-1] if isinstance(private[-1], dict) else {}
        out.update(private=len(private), private_head=step.get("hash"))
    return out


def _ended_seed(last: Mapping[str, Any]) -> Any:
    data = last.get("data") if last.get("type") == catalog.ENDED else None
    return data.get("seed") if isinstance(data, dict) else None


def signed(statement: Mapping[str, Any], key: Ed25519PrivateKey) -> dict[str, Any]:
    """Return a signature object over the canonical text of `statement`."""
    text = codec.canonical(statement)
    value = base64.urlsafe_b64encode(key.sign(text.encode("utf-8"))).rstrip(b"=").decode()
    return {"alg": ALG, "kid": key_id(key.public_key()), "statement": text, "value": value}


def opened(sig: Any, trusted: Mapping[str, Ed25519PublicKey]) -> tuple[Any, str]:
    """Return (the statement a trusted key signed, its key id), or (None, why not)."""
    if not isinstance(sig, dict) or not all(
        isinstance(sig.get(k), str) for k in ("alg", "kid", "statement", "value")
    ):
        return None, "the signature is not an object with alg, kid, statement and value"
    kid = sig["kid"]
    if sig["alg"] != ALG:
        return None, f"the signature's algorithm is {sig['alg']!r}, not {ALG}"
    if kid not in trusted:
        known = ", ".join(sorted(trusted)) or "none"
        return None, f"signed with key {kid}, which is not a trusted key (trusted: {known})"
    try:
        value = base64.urlsafe_b64decode(sig["value"] + "=" * (-len(sig["value"]) % 4))
        trusted[kid].verify(value, sig["statement"].encode("utf-8"))
        return json.loads(sig["statement"]), kid
    except (InvalidSignature, ValueError):
        return None, f"the signature does not match its statement under key {kid}"


def sign(
    bundle: Mapping[str, Any], key: Ed25519PrivateKey, at: str | None = None
) -> dict[str, Any]:
    """Return the `signature` member for `bundle`, signed with `key`; dated `at` (its
    statement's `signed_at`: the key's window is checked against it, events.keylog)."""
    said = statement(bundle)
    return signed({**said, "signed_at": at} if at is not None else said, key)


def check(
    bundle: Mapping[str, Any], trusted: Mapping[str, Ed25519PublicKey]
) -> tuple[str | None, str]:
    """Return (the signing key's id or None, what was found): the id only when the bundle is
    signed by a trusted key and the signed statement is this bundle's."""
    if bundle.get("signature") is None:
        return (
            None,
            "unsigned: the bundle carries no signature: nothing shows the service issued it",
        )
    said, kid = opened(bundle["signature"], trusted)
    if said is None:
        return None, kid
    ours = json.loads(codec.canonical(statement(bundle)))
    fields = ("format", "game", "league", "events", "head", "seed", "private", "private_head")
    for field in fields:
        if not isinstance(said, dict) or said.get(field) != ours.get(field):
            got = _short(said.get(field) if isinstance(said, dict) else said)
            return (
                None,
                f"key {kid} signed another {field}: {got}, the bundle has "
                f"{_short(ours.get(field))}",
            )
    return kid, f"signed by key {kid} ({ALG}); the statement matches the bundle"


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."

"""The envelope's canonical encoding, its hash chain, and the log's time format."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

GENESIS = "0" * 64


def canonical(value: Any) -> str:
    """Return the canonical JSON text of `value`: sorted keys, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def chain_hash(envelope: dict[str, Any]) -> str:
    """Return sha256(prev + canonical JSON of the envelope without its `hash`)."""
    body = {k: v for k, v in envelope.items() if k != "hash"}
    return hashlib.sha256((envelope["prev"] + canonical(body)).encode("utf-8")).hexdigest()


def seal(envelopes: list[dict[str, Any]], prev: str) -> list[dict[str, Any]]:
    """Link `envelopes` after the event whose hash is `prev`, setting `prev` and `hash`."""
    for env in envelopes:
        env["prev"] = prev
        env["hash"] = prev = chain_hash(env)
    return envelopes


def now_iso() -> str:
    """Return the server time as an ISO 8601 UTC string with milliseconds."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_time(at: str) -> datetime:
    """Parse an envelope's `at`."""
    return datetime.fromisoformat(at.replace("Z", "+00:00"))


def dumps(envelope: dict[str, Any]) -> str:
    """Encode an envelope for the stream."""
    return canonical(envelope)


def loads(raw: str | bytes) -> dict[str, Any]:
    """Decode an envelope read from the stream."""
    return json.loads(raw)

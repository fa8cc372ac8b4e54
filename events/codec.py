"""The envelope's canonical encoding, its hash chain, and the log's time format."""

from __future__ import annotations

import hashlib
import json
import re
import time
import zlib
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

GENESIS = "0" * 64
# An envelope is stored as raw deflate with a preset dictionary (sample envelopes of every
# ruleset, frozen: stored entries depend on it), after one byte naming the dictionary.
# A stored value starting with "{" is plain JSON (entries written before compression).
DICTIONARY = 1
DICTIONARIES = {1: "envelope-dict-1.txt"}
JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
NOT_BRACKET = bytes(c for c in range(256) if c not in b"[]{}")
EMPTY_PAIR = re.compile(rb"\[\]|\{\}")


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
    return iso(time.time())


def iso(ts: float) -> str:
    """Return Unix time `ts` as an ISO 8601 UTC string with milliseconds."""
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_time(at: str) -> datetime:
    """Parse an envelope's `at`."""
    return datetime.fromisoformat(at.replace("Z", "+00:00"))


@cache
def _dictionary(number: int) -> bytes:
    return (Path(__file__).parent / "data" / DICTIONARIES[number]).read_bytes()


@cache
def _compressor() -> Any:
    """A compressor primed with the dictionary; each envelope uses a copy of it. memLevel
    8 (zlib's default), not 9: the copy is of the whole state, and 9's doubles its hash
    tables (a copy cost 80 µs, now 13, for the same bytes out on envelopes this size);
    the reader does not depend on it."""
    zdict = _dictionary(DICTIONARY)
    return zlib.compressobj(6, zlib.DEFLATED, -15, 8, zlib.Z_DEFAULT_STRATEGY, zdict)


def dumps(envelope: dict[str, Any]) -> bytes:
    """Encode an envelope for the stream: its canonical JSON, deflated (about 40% of it)."""
    c = _compressor().copy()
    return bytes([DICTIONARY]) + c.compress(canonical(envelope).encode("utf-8")) + c.flush()


def loads(raw: str | bytes) -> dict[str, Any]:
    """Decode an envelope read from the stream (deflated, or plain JSON)."""
    if isinstance(raw, bytes) and raw[:1] != b"{":
        d = zlib.decompressobj(-15, zdict=_dictionary(raw[0]))
        raw = d.decompress(raw[1:]) + d.flush()
    return json.loads(raw)


def nests_deeper_than(raw: bytes, limit: int) -> bool:
    """Return True if JSON text nests arrays and objects deeper than `limit`, without
    decoding it (10,000 levels would crash the decoder), in C-speed passes: strip the
    strings, keep the brackets, then peel one level of empty pairs per pass."""
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False
    brackets = JSON_STRING.sub(b"", raw).translate(None, NOT_BRACKET)
    for _ in range(limit):
        peeled = EMPTY_PAIR.sub(b"", brackets)
        if len(peeled) == len(brackets):
            break  # unbalanced or stray brackets: not JSON, the decoder will say so
        brackets = peeled
    return EMPTY_PAIR.search(brackets) is not None

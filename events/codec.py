"""The envelope's canonical encoding, its hash chain, and the log's time format."""

from __future__ import annotations

import hashlib
import json
import re
import time
import zlib
from collections.abc import Callable
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import orjson
import zstandard as zstd

GENESIS = "0" * 64
# An envelope is stored compressed with a preset dictionary (sample envelopes of every
# ruleset, frozen: stored entries depend on it), after one byte naming how: ZSTD, a
# magicless zstd frame with the dictionary as raw content (written now); DEFLATE, raw
# deflate with the same dictionary (entries written before). A stored value starting
# with "{" is plain JSON (entries written before compression). Every kind reads alike.
DEFLATE, ZSTD = b"\x01", b"\x02"
DICTIONARY = "envelope-dict-1.txt"
ZSTD_LEVEL = 3
JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
NOT_BRACKET = bytes(c for c in range(256) if c not in b"[]{}")
EMPTY_PAIR = re.compile(rb"\[\]|\{\}")
# orjson writes what Python's encoder writes (sorted keys, no spaces, UTF-8, the same
# escapes) for strings, integers, booleans, null, lists and objects with string keys, but
# not every float alike (1e-05 is 0.00001, NaN null): a number with a fraction or an
# exponent, or a null, anywhere in its text sends the value to Python's encoder. A string
# that only looks like one (`":1.5]"`) costs that detour, never a different text.
_ORJSON = (
    orjson.OPT_SORT_KEYS
    | orjson.OPT_PASSTHROUGH_DATACLASS  # types Python's encoder refuses are refused still
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)
_NOT_INTEGER = re.compile(
    rb"[:,\[](?:-?[0-9]+(?:\.[0-9]+(?:[eE][-+]?[0-9]+)?|[eE][-+]?[0-9]+)|null)[,\]}]"
)


def canonical(value: Any) -> str:
    """Return the canonical JSON text of `value`: sorted keys, no spaces, UTF-8."""
    text = _by_orjson(value)
    return text.decode("utf-8") if text is not None else _by_python(value)


def canonical_bytes(value: Any) -> bytes:
    """Return `canonical(value)` encoded in UTF-8."""
    text = _by_orjson(value)
    return text if text is not None else _by_python(value).encode("utf-8")


def normal(value: Any) -> Any:
    """Return `value` as a reload of its canonical JSON sees it (lists for tuples, string
    keys, keys sorted)."""
    text = _by_orjson(value)
    return orjson.loads(text) if text is not None else json.loads(_by_python(value))


def _by_python(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _by_orjson(value: Any) -> bytes | None:
    """Return the canonical text of an object or array as orjson writes it, or None where
    it might differ from Python's (_ORJSON, _NOT_INTEGER)."""
    try:
        text = orjson.dumps(value, option=_ORJSON)
    except TypeError:  # a non-string key, an integer past 64 bits, a type to refuse, ...
        return None
    if text[:1] not in (b"{", b"[") or _NOT_INTEGER.search(text):
        return None
    return text


def chain_hash(envelope: dict[str, Any]) -> str:
    """Return sha256(prev + canonical JSON of the envelope without its `hash`)."""
    body = {k: v for k, v in envelope.items() if k != "hash"}
    return hashlib.sha256(envelope["prev"].encode("utf-8") + canonical_bytes(body)).hexdigest()


def seal(envelopes: list[dict[str, Any]], prev: str) -> list[dict[str, Any]]:
    """Link `envelopes` after the event whose hash is `prev`, setting `prev` and `hash`."""
    for env in envelopes:
        env["prev"] = prev
        env["hash"] = prev = chain_hash(env)
    return envelopes


def seal_logs(
    envelopes: list[dict[str, Any]], prev: str, private_prev: str
) -> list[dict[str, Any]]:
    """Link `envelopes`, in place and in order: public ones after `prev`, private ones (with
    `private`: events.envelope) after `private_prev`, each log its own chain."""
    seal([e for e in envelopes if "private" not in e], prev)
    seal([e for e in envelopes if "private" in e], private_prev)
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
def _dictionary() -> bytes:
    return (Path(__file__).parent / "data" / DICTIONARY).read_bytes()


@cache
def _zstd_dictionary() -> zstd.ZstdCompressionDict:
    """The dictionary, digested once for compression at ZSTD_LEVEL."""
    digested = zstd.ZstdCompressionDict(_dictionary(), dict_type=zstd.DICT_TYPE_RAWCONTENT)
    digested.precompute_compress(level=ZSTD_LEVEL)
    return digested


# A frame without the magic number, checksum or dictionary id (4-8 bytes an entry): the
# leading byte says what it is, the dictionary is always the one, and Redis keeps it.
_ZSTD_PARAMS = zstd.ZstdCompressionParameters.from_level(
    ZSTD_LEVEL, format=zstd.FORMAT_ZSTD1_MAGICLESS, write_checksum=False, write_dict_id=False
)

# Idle (de)compressors: one is not safe to share between threads while it works, and a
# new one costs more than an envelope; a list's pop and append are atomic.
_compressors: list[zstd.ZstdCompressor] = []
_decompressors: list[zstd.ZstdDecompressor] = []


def _pooled(idle: list[Any], make: Callable[[], Any], use: Callable[[Any], bytes]) -> bytes:
    """Return `use(worker)` with an idle worker from `idle` (or a new one from `make`),
    put back afterwards."""
    try:
        worker = idle.pop()
    except IndexError:
        worker = make()
    try:
        return use(worker)
    finally:
        idle.append(worker)


def _new_compressor() -> zstd.ZstdCompressor:
    return zstd.ZstdCompressor(dict_data=_zstd_dictionary(), compression_params=_ZSTD_PARAMS)


def _new_decompressor() -> zstd.ZstdDecompressor:
    return zstd.ZstdDecompressor(dict_data=_zstd_dictionary(), format=zstd.FORMAT_ZSTD1_MAGICLESS)


def dumps(envelope: dict[str, Any]) -> bytes:
    """Encode an envelope for the stream: its canonical JSON, compressed with the
    dictionary (about half of it). zstd, not deflate: 4-5 µs an envelope instead of 15
    (deflate copies its whole primed state for each), about the same bytes."""
    text = canonical_bytes(envelope)
    return ZSTD + _pooled(_compressors, _new_compressor, lambda c: c.compress(text))


def loads(raw: str | bytes) -> dict[str, Any]:
    """Decode an envelope read from the stream (zstd, deflated, or plain JSON)."""
    if isinstance(raw, bytes) and raw[:1] == ZSTD:
        frame = raw[1:]
        raw = _pooled(_decompressors, _new_decompressor, lambda d: d.decompress(frame))
    elif isinstance(raw, bytes) and raw[:1] == DEFLATE:
        d = zlib.decompressobj(-15, zdict=_dictionary())
        raw = d.decompress(raw[1:]) + d.flush()
    try:  # orjson: a quarter of the time (each open stream's process decodes each entry)
        return orjson.loads(raw)
    except orjson.JSONDecodeError:  # what only Python's reads (NaN, integers past 64 bits)
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

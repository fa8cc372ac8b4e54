"""The bounds on verifying an exported bundle, and the check that holds it to its shape.

`events.bundle_schema.SCHEMA` is THE bundle schema: `openapi.yaml` publishes the same one
(components `Bundle`, `Event`, `Seat`; tests/events/test_bundle.py checks they match), the
export answers with it, and `check` holds every bundle to it before the audit folds a single
event (`POST /v1/verify`, `marketfold verify`). A bundle that fails is refused with the
first bad path (`events[3].data`) and the reason, never half-verified.

The schema is checked by `events.jsonshape` (a small checker of the keywords it uses),
plus bounds JSON Schema cannot say: how deeply one envelope nests, how large its JSON
is, and how many arrays and objects the whole text holds before it is decoded.
"""

from __future__ import annotations

import json
from typing import Any

from events import codec, jsonshape
from events.bundle_schema import SCHEMA

MAX_EVENT_BYTES = 64 * 1024  # an envelope's JSON; the largest seen is about 11 KiB
MAX_EVENT_DEPTH = 12  # arrays and objects inside one envelope (itself one); real: 6
MAX_CONTAINERS = 250_000  # '[' and '{' in the whole text, counted before decoding it
MAX_TEXT_DEPTH = 32  # the whole text, as every request body (api/parse.py)

_CHECK = jsonshape.compile(SCHEMA)  # events.bundle_schema
BundleError = jsonshape.ShapeError  # a bundle that is not one: its first bad path, why


def check_text(raw: bytes) -> None:
    """Refuse JSON text that is not UTF-8 (a byte order mark allowed), or too costly to
    decode as a bundle, before decoding it."""
    check_utf8(raw)
    if raw.count(b"[") + raw.count(b"{") > MAX_CONTAINERS:
        raise BundleError("_body", f"more than {MAX_CONTAINERS} arrays and objects")
    if codec.nests_deeper_than(raw, MAX_TEXT_DEPTH):
        raise BundleError("_body", f"nests arrays and objects deeper than {MAX_TEXT_DEPTH}")


def check(data: Any) -> None:
    """Raise BundleError at the first place where `data` is not a bundle within bounds."""
    if not isinstance(data, dict):
        raise BundleError("_body", "must be a JSON object (an exported bundle)")
    _CHECK(data, None)
    for name in ("events", "private"):
        for i, env in enumerate(data.get(name) or ()):
            text = json.dumps(env, ensure_ascii=False).encode()
            if len(text) > MAX_EVENT_BYTES:
                raise BundleError(f"{name}[{i}]", f"is larger than {MAX_EVENT_BYTES} bytes of JSON")
            if codec.nests_deeper_than(text, MAX_EVENT_DEPTH):
                raise BundleError(
                    f"{name}[{i}]", f"nests arrays and objects deeper than {MAX_EVENT_DEPTH}"
                )


def check_utf8(raw: bytes) -> None:
    """Refuse text that is not UTF-8 (with or without a byte order mark): a file saved as
    UTF-16 or UTF-32 (whose ASCII would decode as UTF-8 with NUL bytes between) is named as
    such, never read as another file."""
    wide = raw[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in raw
    if not wide:
        try:
            raw.decode("utf-8-sig")
            return
        except UnicodeDecodeError as e:
            raise BundleError(
                "_body",
                f"is not UTF-8 text (byte {e.start} is {raw[e.start]:#04x}): a bundle is read "
                "as UTF-8, with or without a byte order mark",
            ) from None
    raise BundleError(
        "_body",
        "is UTF-16 or UTF-32 text, not UTF-8: save the file as UTF-8 (a byte order mark is "
        "allowed), or hand over the bytes as downloaded",
    )

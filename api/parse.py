"""Reading a request: its JSON body, ids in the path, headers and query numbers. Anything
malformed is refused here, before a use case runs."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from flask import Request, request
from werkzeug.exceptions import HTTPException

from api import present
from api.errors import Problem
from events import codec
from service.errors import Invalid, NotFound

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
CURSOR = re.compile(r"[A-Za-z0-9_-]{1,128}")  # opaque: service.lobby seals it
DIGITS = re.compile(r"[0-9]{1,18}")
EVENT_ID = re.compile(r"([0-9]{1,18})(?:\.([0-9]{1,18}))?")  # `12`, or `12.3` (private steps)
IDEM_KEY = re.compile(r"[\x21-\x7e]{1,128}")
MAX_DEPTH = 32  # no request body needs more; 10,000 levels would crash the JSON decoder
SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")  # \ud800-\udfff, maybe one of a pair
FEED_ID = re.compile(r"([0-9]{1,20})(?:-([0-9]{1,20}))?")
MAX_U64 = 2**64 - 1  # each part of a Redis stream id


def body(check_text: Callable[[bytes], None] | None = None, any_type: bool = False) -> Any:
    """Return the JSON body, or refuse it if it is not JSON or nests too deeply;
    `check_text` may refuse the raw text first (raising), before it is decoded. With
    `any_type`, the bytes are read as JSON whatever `Content-Type` says (UTF-8, with or
    without a byte order mark)."""
    req = request._get_current_object()  # one lookup of the request's proxy
    raw = raw_body(req)
    if check_text is not None:
        check_text(raw)
    if codec.nests_deeper_than(raw, MAX_DEPTH):
        raise Invalid(
            "invalid_body",
            f"the body nests arrays and objects deeper than {MAX_DEPTH} levels",
            errors={"_body": [f"at most {MAX_DEPTH} levels of nesting"]},
        )
    try:
        data = req.get_json(silent=True, force=any_type)
    except RecursionError:  # belt and braces: the depth check should catch it first
        data = None
    if data is None and not any_type and not req.is_json:
        errors = {"Content-Type": ["must be application/json"]}
        detail = "send the body with Content-Type: application/json"
        raise Invalid("invalid_body", detail, errors=errors)
    if data is None:
        errors = {"_body": ["not valid JSON"]}
        raise Invalid("invalid_body", "the body must be a JSON object", errors=errors)
    if SURROGATE_ESCAPE.search(raw) and (where := _lone_surrogate(data)):
        raise Invalid(
            "invalid_body",
            "the body holds a lone UTF-16 surrogate (\\ud800-\\udfff), which is not text",
            errors={where: ["a string holds a lone surrogate"]},
        )
    return data if any_type else whole_numbers(data)


def whole_numbers(data: Any) -> Any:
    """Return `data` with every integral number as an int: JSON has one number type, so `2.0`
    is the integer 2 (as JSON Schema says); the rules and the field checks see 2."""
    if isinstance(data, float) and data.is_integer():
        return int(data)
    if isinstance(data, dict):
        return {key: whole_numbers(value) for key, value in data.items()}
    if isinstance(data, list):
        return [whole_numbers(value) for value in data]
    return data


def raw_body(req: Request | None = None) -> bytes:
    """Return the body of `req` (the request by default) as sent (413 if it is over this
    route's limit)."""
    req = req or request._get_current_object()
    raw, limit = _raw_body(req), req.max_content_length
    if req.content_length is None and limit and len(raw) >= limit:
        # a chunked body is cut off at the limit (werkzeug); say so rather than "not JSON"
        raise Problem(413, "body_too_large", f"bodies here are limited to {limit} bytes")
    return raw


def _raw_body(req: Request) -> bytes:
    try:
        return req.get_data(cache=True)
    except HTTPException:
        raise  # too large (413), or the client went away
    except Exception as e:  # the server's reader refused the bytes (e.g. a bad chunk size)
        raise Problem(400, "invalid_body", f"the body could not be read: {e}") from e


def _lone_surrogate(data: Any) -> str | None:
    """Return where a string of `data` holds a lone surrogate (a top-level field, or
    `_body`), or None. A pair (e.g. an emoji written as two escapes) is one character."""
    if _is_text(data):
        return None
    if isinstance(data, dict):
        for key, value in data.items():
            if _is_text(key) and _is_text(value):
                continue
            return key if _is_text(key) else "_body"
    return "_body"


def _is_text(data: Any) -> bool:
    try:
        json.dumps(data, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        return False
    return True


def game_id(value: str) -> str:
    """Return a well-formed game id, or refuse it as an unknown game."""
    if not GAME_ID.fullmatch(value):
        raise NotFound("game_not_found", f"no game {value!r}")
    return value


def path_id(value: str, code: str, what: str) -> str:
    """Return a well-formed id from the path (a token's, a webhook's...), or refuse it as
    unknown: `code` is the not-found code, `what` names the thing in the detail."""
    if not GAME_ID.fullmatch(value):
        raise NotFound(code, f"no {what} {value!r}")
    return value


def lang() -> str:
    """Return the caller's language (Accept-Language; default en)."""
    return present.language(request.headers.get("Accept-Language"))


def number(name: str, raw: str, least: int = 0) -> int:
    """Return query parameter `name` as a whole number >= `least`."""
    if not DIGITS.fullmatch(raw) or int(raw) < least:
        detail = "a whole number" if least == 0 else f"a whole number >= {least}"
        errors = {name: [f"must be a whole number >= {least}"]}
        raise Invalid("invalid_query", f"{name} must be {detail}", errors=errors)
    return int(raw)


def idempotency_key(new: str) -> str:
    """Return the Idempotency-Key header (`new` when absent), or refuse a malformed one
    (an empty one included: a client that sends the header means a key)."""
    return given_idempotency_key() or new


def given_idempotency_key() -> str | None:
    """Return the Idempotency-Key header (None when absent), or refuse a malformed one."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not IDEM_KEY.fullmatch(key):
        raise Invalid(
            "invalid_header",
            "Idempotency-Key must be 1-128 visible ASCII chars",
            errors={"Idempotency-Key": ["1-128 visible ASCII characters"]},
        )
    return key


def if_match() -> int | None:
    """Return the version in If-Match (None when absent or `*`)."""
    raw = request.headers.get("If-Match")
    if raw is None:
        return None
    value = raw.strip().removeprefix("W/").strip('"')
    if value == "*":
        return None  # any current version
    version, _, seen = value.partition(".")  # an ETag "12.3" (a party's private steps)
    if not DIGITS.fullmatch(version) or (seen and not DIGITS.fullmatch(seen)):
        raise Invalid(
            "invalid_header",
            'If-Match must be a game version, e.g. "12"',
            errors={"If-Match": ["must be a version number"]},
        )
    return int(version)


def event_cursor() -> tuple[int, int | None]:
    """Return where a game's event stream resumes (Last-Event-ID, or ?after=, or 0): the
    public event seq and, after a private step's frame (`<seq>.<k>`, the form of a
    party's ETag), how many private steps of the caller's seat were sent (else None)."""
    raw = request.headers.get("Last-Event-ID") or request.args.get("after") or "0"
    match = EVENT_ID.fullmatch(raw.strip())
    if not match:
        raise Invalid(
            "invalid_header",
            "Last-Event-ID must be an event id: a seq, or <seq>.<k> after a private step",
            errors={"Last-Event-ID": ["must be a whole number or two joined by a dot"]},
        )
    seq, seen = match.groups()
    return int(seq), int(seen) if seen is not None else None


def feed_id() -> str | None:
    """Return where a feed resumes (Last-Event-ID, or ?after=), or None when not given.

    A stream id is `ms` or `ms-seq`, each part an unsigned 64-bit number: anything else
    is refused here, since Redis would refuse it only once the stream has started."""
    header = request.headers.get("Last-Event-ID")
    name, raw = ("Last-Event-ID", header) if header else ("after", request.args.get("after"))
    if raw is None:
        return None
    if not is_feed_id(raw.strip()):
        raise Invalid(
            "invalid_header",
            f"{name} must be a feed id such as 1712345678901-0",
            errors={name: ["a feed id: digits, or digits-digits, each below 2^64"]},
        )
    return raw.strip()


def is_feed_id(raw: str) -> bool:
    """Whether `raw` is a Redis stream id, `ms` or `ms-seq`, each part below 2^64."""
    match = FEED_ID.fullmatch(raw)
    return bool(match) and all(int(part) <= MAX_U64 for part in match.groups() if part)


def lobby_query(with_player: bool = True) -> dict[str, Any]:
    """Return the filters of a games list: status, ruleset, player, limit (1-100, default
    20) and cursor; an unknown filter value is refused."""
    args, query = request.args, {}
    status = args.get("status")
    if status is not None and status not in ("waiting", "active", "finished"):
        errors = {"status": ["must be one of waiting, active, finished"]}
        raise Invalid("invalid_query", f"no status {status!r}", errors=errors)
    for name in ("ruleset", "player", "cursor") if with_player else ("ruleset", "cursor"):
        value = args.get(name)
        pattern = CURSOR if name == "cursor" else GAME_ID
        if value is not None and not pattern.fullmatch(value):
            size = "1-128" if name == "cursor" else "1-64"
            errors = {name: [f"{size} characters of A-Z, a-z, 0-9, _ and -"]}
            raise Invalid("invalid_query", f"{name} is malformed", errors=errors)
        query[name] = value
    limit = number("limit", args.get("limit", "20"), least=1)
    if limit > 100:
        raise Invalid("invalid_query", "limit is at most 100", errors={"limit": ["at most 100"]})
    return {**query, "status": status, "limit": limit}

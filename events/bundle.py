"""The shape of an exported bundle and the bounds on verifying one.

`SCHEMA` is THE bundle schema: `openapi.yaml` publishes the same one (components
`Bundle`, `Event`, `Seat`; tests/events/test_bundle.py checks they match), the export
answers with it, and `check` holds every bundle to it before the audit folds a single
event (`POST /v1/verify`, `marketfold verify`). A bundle that fails is refused with the
first bad path (`events[3].data`) and the reason, never half-verified.

The checker below reads only the JSON Schema keywords in `KEYWORDS` (the test fails if
the schema uses another one), plus two bounds JSON Schema cannot say: how deeply one
envelope nests and how large its JSON is.
"""

from __future__ import annotations

import json
import re
from typing import Any

from events import codec

FORMAT = "marketfold-bundle/1"
MAX_EVENTS = 20_000  # a 6-player GobCon game logs about 2,000
MAX_EVENT_BYTES = 64 * 1024  # an envelope's JSON; the largest seen is about 11 KiB
MAX_EVENT_DEPTH = 12  # arrays and objects inside one envelope (itself one); real: 6
MAX_CONTAINERS = 250_000  # '[' and '{' in the whole text, counted before decoding it
MAX_TEXT_DEPTH = 32  # the whole text, as every request body (api/parse.py)

HEX64 = "^[0-9a-f]{64}$"
SEAT_NUMBER = {"type": "integer", "minimum": 0}
SEAT = {
    "type": "object",
    "required": ["seat", "player", "name"],
    "properties": {"seat": SEAT_NUMBER, "player": {"type": "string"}, "name": {"type": "string"}},
    "additionalProperties": False,
}
CREATED = {
    "type": "object",
    "required": [
        "ruleset",
        "rules_version",
        "players",
        "options",
        "decision_timeout_s",
        "seed_commitment",
    ],
    "properties": {
        "ruleset": {"type": "string"},
        "rules_version": {"type": "integer", "minimum": 1},
        "players": {"type": "integer", "minimum": 1, "maximum": 64},
        "options": {"type": "object"},
        "decision_timeout_s": {"type": ["integer", "null"], "minimum": 1, "maximum": 2592000},
        "seed_commitment": {"type": "string", "pattern": HEX64},
        "creator": {"type": "string"},
        "league": {"type": "object"},
    },
}
ENDED = {
    "type": "object",
    "required": ["result", "seed"],
    "properties": {"result": {"type": "object"}, "seed": {"type": "string"}},
}


def _when(field: str, value: str, then: dict[str, Any]) -> dict[str, Any]:
    return {
        "if": {"required": [field], "properties": {field: {"const": value}}},
        "then": then,
    }


COMMAND = {
    "type": "object",
    "required": ["type"],
    "properties": {
        "type": {"enum": ["create", "join", "act", "expire", "resolve"]},
        "player": {"type": "string"},
        "name": {"type": "string"},
        "action": {
            "type": "object",
            "required": ["type"],
            "properties": {"type": {"type": "string"}},
        },
        "key": {"type": "string"},
    },
    "allOf": [
        _when("type", "join", {"required": ["player"]}),
        _when("type", "act", {"required": ["player", "action"]}),
        _when("type", "expire", {"required": ["key"]}),
        _when("type", "resolve", {"required": ["key"]}),
    ],
}
EVENT = {
    "type": "object",
    "required": ["seq", "type", "data", "actor", "at", "cause", "visible_to", "prev", "hash"],
    "properties": {
        "seq": {"type": "integer", "minimum": 1},
        "type": {"type": "string"},
        "data": {"type": "object"},
        "actor": {"oneOf": [SEAT_NUMBER, {"const": "system"}]},
        "at": {"type": "string", "format": "date-time"},
        "cause": {"type": "string"},
        "visible_to": {
            "oneOf": [{"const": "all"}, {"type": "array", "items": SEAT_NUMBER, "maxItems": 64}]
        },
        "prev": {"type": "string", "pattern": HEX64},
        "hash": {"type": "string", "pattern": HEX64},
        "command": COMMAND,
        "draws": {
            "type": "array",
            "prefixItems": [{"type": "integer", "minimum": 0}, {"type": "integer", "minimum": 0}],
            "minItems": 2,
            "maxItems": 2,
        },
        "salt": {"type": "string"},
        "redacted": {"const": True},
    },
    "additionalProperties": False,
    "allOf": [
        _when("type", "game.Created", {"properties": {"data": CREATED}}),
        _when("type", "game.Ended", {"properties": {"data": ENDED}}),
    ],
}
SCHEMA = {
    "type": "object",
    "required": ["format", "game", "events", "seed"],
    "properties": {
        "format": {"const": FORMAT},
        "game": {
            "type": "object",
            "required": ["id"],
            "properties": {
                "id": {"type": "string"},
                "ruleset": {"type": "string"},
                "rules_version": {"type": ["integer", "null"]},
                "status": {"enum": ["waiting", "active", "finished"]},
                "players": {"type": "integer"},
                "options": {"type": "object"},
                "seats": {"type": "array", "items": SEAT},
                "version": {"type": "integer"},
            },
        },
        "events": {"type": "array", "minItems": 1, "maxItems": MAX_EVENTS, "items": EVENT},
        "seed": {"type": ["string", "null"]},
    },
}
KEYWORDS = {
    "type", "const", "enum", "required", "properties", "additionalProperties", "items",
    "prefixItems", "minItems", "maxItems", "minimum", "maximum", "pattern", "format",
    "oneOf", "allOf", "if", "then",
}  # fmt: skip


class BundleError(ValueError):
    """A bundle that is not one: `path` (e.g. `events[3].data`, `_body` for the whole
    text) and what is wrong there."""

    def __init__(self, path: str, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = path, reason


def check_text(raw: bytes) -> None:
    """Refuse JSON text too costly to decode as a bundle, before decoding it."""
    if raw.count(b"[") + raw.count(b"{") > MAX_CONTAINERS:
        raise BundleError("_body", f"more than {MAX_CONTAINERS} arrays and objects")
    if codec.nests_deeper_than(raw, MAX_TEXT_DEPTH):
        raise BundleError("_body", f"nests arrays and objects deeper than {MAX_TEXT_DEPTH}")


def check(data: Any) -> None:
    """Raise BundleError at the first place where `data` is not a bundle within bounds."""
    if not isinstance(data, dict):
        raise BundleError("_body", "must be a JSON object (an exported bundle)")
    _check(data, SCHEMA, "")
    for i, env in enumerate(data["events"]):
        path = f"events[{i}]"
        if _depth(env, MAX_EVENT_DEPTH) > MAX_EVENT_DEPTH:
            raise BundleError(path, f"nests arrays and objects deeper than {MAX_EVENT_DEPTH}")
        if len(json.dumps(env, ensure_ascii=False).encode()) > MAX_EVENT_BYTES:
            raise BundleError(path, f"is larger than {MAX_EVENT_BYTES} bytes of JSON")


def _depth(value: Any, limit: int) -> int:
    """Return how deeply `value` nests, counting no further than limit + 1."""
    if limit < 0 or not isinstance(value, dict | list):
        return 0
    children = value.values() if isinstance(value, dict) else value
    return 1 + max((_depth(v, limit - 1) for v in children), default=0)


TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "null": lambda v: v is None,
}
DATE_TIME = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?(Z|[+-][0-9]{2}:[0-9]{2})"
)


def _fits(value: Any, schema: dict[str, Any]) -> bool:
    try:
        _check(value, schema, "")
    except BundleError:
        return False
    return True


def _check(value: Any, schema: dict[str, Any], path: str) -> None:
    def fail(reason: str, where: str = path) -> None:
        raise BundleError(where or "_body", reason)

    kinds = schema.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if not any(TYPES[k](value) for k in kinds):
            fail(f"must be {' or '.join(_article(k) for k in kinds)}")
    if "const" in schema and not _equal(value, schema["const"]):
        fail(f"must be {json.dumps(schema['const'])}")
    if "enum" in schema and not any(_equal(value, v) for v in schema["enum"]):
        fail(f"must be one of {', '.join(json.dumps(v) for v in schema['enum'])}")
    if "oneOf" in schema and sum(_fits(value, s) for s in schema["oneOf"]) != 1:
        fail("must be " + " or ".join(_describe(s) for s in schema["oneOf"]))
    if isinstance(value, str):
        if "pattern" in schema and not re.search(schema["pattern"], value):
            fail(f"must match {schema['pattern']}")
        if schema.get("format") == "date-time" and not _date_time(value):
            fail("must be a date-time such as 2026-01-31T12:00:00.000Z")
    if TYPES["integer"](value):
        if value < schema.get("minimum", value) or value > schema.get("maximum", value):
            fail(f"must be from {schema.get('minimum', '-inf')} to {schema.get('maximum', 'inf')}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            fail(f"must hold at least {schema['minItems']} items")
        if len(value) > schema.get("maxItems", len(value)):
            fail(f"must hold at most {schema['maxItems']} items")
        firsts = schema.get("prefixItems", [])
        for i, item in enumerate(value):
            sub = firsts[i] if i < len(firsts) else schema.get("items")
            if sub is not None:
                _check(item, sub, f"{path}[{i}]")
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for name in schema.get("required", []):
            if name not in value:
                fail("is required", _join(path, name))
        for name, sub in props.items():
            if name in value:
                _check(value[name], sub, _join(path, name))
        if schema.get("additionalProperties") is False:
            for name in value:
                if name not in props:
                    fail("is not allowed here", _join(path, name))
    for sub in schema.get("allOf", []):
        _check(value, sub, path)
    if "if" in schema and _fits(value, schema["if"]):
        _check(value, schema["then"], path)


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _equal(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _date_time(value: str) -> bool:
    if not DATE_TIME.fullmatch(value):
        return False
    try:
        when = codec.parse_time(value)
    except ValueError:
        return False
    return 1 < when.year < 9999  # a deadline up to 30 days later still fits a datetime


def _article(kind: str) -> str:
    return {"object": "an object", "array": "an array", "integer": "an integer"}.get(kind, kind)


def _describe(schema: dict[str, Any]) -> str:
    if "const" in schema:
        return json.dumps(schema["const"])
    return _article(schema.get("type", "something else"))

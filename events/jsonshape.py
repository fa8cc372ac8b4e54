"""A small JSON Schema checker that names the first bad path, for the bundle's schema.

`compile(schema)` turns a schema into a checker once; the checker raises `ShapeError`
with the first place where a value does not fit (`events[3].data`, `_body` for the value
itself) and what is wrong there. Only the keywords in `KEYWORDS` are read (a test checks
the bundle's schema uses no other): enough for the bundle, fast enough for 20,000
envelopes. Types are the exact types JSON decodes to: an integer is never a boolean nor
a float (`1.0` is not an integer here).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from events import codec

KEYWORDS = {
    "type", "const", "enum", "required", "properties", "additionalProperties", "items",
    "prefixItems", "minItems", "maxItems", "minimum", "maximum", "pattern", "format",
    "oneOf", "allOf", "if", "then",
}  # fmt: skip
TYPES = {
    "object": dict,
    "array": list,
    "string": str,
    "integer": int,
    "null": type(None),
    "boolean": bool,
}
# a JSON value decodes to exactly these types (True is a bool, never an int)
DATE_TIME = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?(Z|[+-][0-9]{2}:[0-9]{2})"
)
Where = tuple | None  # (parent, key) links, formatted only when something fails
Checker = Callable[[Any, Where], None]


class ShapeError(ValueError):
    """`path` (e.g. `events[3].data`) does not fit: `reason`."""

    def __init__(self, path: str, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = path, reason


def path_of(where: Where) -> str:
    """Return `where` as text: `events[3].data`, or `_body` for the top."""
    steps: list[Any] = []
    while where is not None:
        where, key = where
        steps.append(key)
    text = ""
    for key in reversed(steps):
        text += f"[{key}]" if isinstance(key, int) else f".{key}" if text else str(key)
    return text or "_body"


def fail(where: Where, reason: str) -> None:
    raise ShapeError(path_of(where), reason)


def compile(schema: dict[str, Any]) -> Checker:  # noqa: A001 - a schema compiler
    """Return a checker of `schema` that raises ShapeError at the first bad path."""
    checks: list[Checker] = []
    add = checks.append
    if "type" in schema:
        kinds = [schema["type"]] if isinstance(schema["type"], str) else schema["type"]
        add(_one_of_types({TYPES[k] for k in kinds}, " or ".join(map(_article, kinds))))
    if "const" in schema:
        add(_in([schema["const"]], f"must be {json.dumps(schema['const'])}"))
    if "enum" in schema:
        said = ", ".join(json.dumps(v) for v in schema["enum"])
        add(_in(schema["enum"], f"must be one of {said}"))
    if "oneOf" in schema:
        add(_exactly_one(schema["oneOf"]))
    if "pattern" in schema or schema.get("format") == "date-time":
        add(_text(schema.get("pattern"), schema.get("format") == "date-time"))
    if "minimum" in schema or "maximum" in schema:
        add(_bounded(schema.get("minimum"), schema.get("maximum")))
    if {"minItems", "maxItems", "items", "prefixItems"} & set(schema):
        add(_array(schema))
    if {"required", "properties", "additionalProperties"} & set(schema):
        add(_object(schema))
    checks += [compile(sub) for sub in schema.get("allOf", [])]
    if "if" in schema:
        add(_when(matcher(schema["if"]), compile(schema["then"])))

    def check(value: Any, where: Where) -> None:
        for one in checks:
            one(value, where)

    return check


def matcher(schema: dict[str, Any]) -> Callable[[Any], bool]:
    """Return a yes/no test of `schema` (a field equal to a constant is tested directly)."""
    props, required = schema.get("properties", {}), schema.get("required", [])
    if set(schema) == {"required", "properties"} and len(props) == 1 and required == list(props):
        ((name, sub),) = props.items()
        if set(sub) == {"const"}:
            const = sub["const"]
            return lambda v: isinstance(v, dict) and name in v and _equal(v[name], const)
    check = compile(schema)

    def fits(value: Any) -> bool:
        try:
            check(value, None)
        except ShapeError:
            return False
        return True

    return fits


def _one_of_types(types: set[type], said: str) -> Checker:
    def check(value: Any, where: Where) -> None:
        if type(value) not in types:
            fail(where, f"must be {said}")

    return check


def _in(allowed: list[Any], said: str) -> Checker:
    def check(value: Any, where: Where) -> None:
        if not any(_equal(value, a) for a in allowed):
            fail(where, said)

    return check


def _exactly_one(schemas: list[dict[str, Any]]) -> Checker:
    tests, said = [matcher(s) for s in schemas], " or ".join(_describe(s) for s in schemas)

    def check(value: Any, where: Where) -> None:
        if sum(test(value) for test in tests) != 1:
            fail(where, f"must be {said}")

    return check


def _text(pattern: str | None, date_time: bool) -> Checker:
    compiled = re.compile(pattern) if pattern else None

    def check(value: Any, where: Where) -> None:
        if not isinstance(value, str):
            return
        if compiled is not None and not compiled.search(value):
            fail(where, f"must match {pattern}")
        if date_time and not _date_time(value):
            fail(where, "must be a date-time such as 2026-01-31T12:00:00.000Z")

    return check


def _bounded(low: int | None, high: int | None) -> Checker:
    said = f"must be from {'-inf' if low is None else low} to {'inf' if high is None else high}"

    def check(value: Any, where: Where) -> None:
        if type(value) is int and (
            (low is not None and value < low) or (high is not None and value > high)
        ):
            fail(where, said)

    return check


def _array(schema: dict[str, Any]) -> Checker:
    least, most = schema.get("minItems", 0), schema.get("maxItems")
    firsts = [compile(s) for s in schema.get("prefixItems", [])]
    rest = compile(schema["items"]) if "items" in schema else None

    def check(value: Any, where: Where) -> None:
        if not isinstance(value, list):
            return
        if len(value) < least:
            fail(where, f"must hold at least {least} items")
        if most is not None and len(value) > most:
            fail(where, f"must hold at most {most} items")
        for i, item in enumerate(value):
            one = firsts[i] if i < len(firsts) else rest
            if one is not None:
                one(item, (where, i))

    return check


def _object(schema: dict[str, Any]) -> Checker:
    required = schema.get("required", [])
    props = {name: compile(sub) for name, sub in schema.get("properties", {}).items()}
    closed = schema.get("additionalProperties") is False
    # in the order the schema lists them: the first bad field is the first one named
    order = [*props, *(name for name in required if name not in props)]
    steps = [(name, props.get(name), name in required) for name in order]

    def check(value: Any, where: Where) -> None:
        if not isinstance(value, dict):
            return
        for name, one, needed in steps:
            if name in value:
                if one is not None:
                    one(value[name], (where, name))
            elif needed:
                fail((where, name), "is required")
        if closed:
            for name in value:
                if name not in props:
                    fail((where, name), "is not allowed here")

    return check


def _when(test: Callable[[Any], bool], then: Checker) -> Checker:
    def check(value: Any, where: Where) -> None:
        if test(value):
            then(value, where)

    return check


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
    return {
        "object": "an object",
        "array": "an array",
        "integer": "an integer",
        "boolean": "a boolean",
    }.get(kind, kind)


def _describe(schema: dict[str, Any]) -> str:
    if "const" in schema:
        return json.dumps(schema["const"])
    return _article(schema.get("type", "something else"))

"""Checking the shapes of action objects and game options, shared by every game."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.base import InvalidAction, OptionError

# A field is checked by a JSON type (int, str, bool, list, dict) or by a function that
# returns what is wrong with a value ("must be ...") or None.
FieldCheck = type | Callable[[Any], str | None]
WANTED = {
    int: "an integer",
    str: "a string",
    bool: "true or false",
    list: "a list",
    dict: "an object",
}


def _problem(value: Any, check: FieldCheck) -> str | None:
    if isinstance(check, type):
        fits = isinstance(value, check) and (check is bool or not isinstance(value, bool))
        return None if fits else f"must be {WANTED.get(check, check.__name__)}"
    return check(value)


def parse(action: Any, shapes: Mapping[str, Mapping[str, FieldCheck]]) -> str:
    """Check an action object against `shapes` (type -> field -> check) and return its
    type; raise InvalidAction naming the field when it is malformed."""
    if not isinstance(action, dict):
        raise InvalidAction("an action must be a JSON object", field="type")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in shapes:
        raise InvalidAction(f"type must be one of {sorted(shapes)}", field="type")
    fields = shapes[kind]
    for name in action:
        if name != "type" and name not in fields:
            raise InvalidAction(f"{kind} takes no field {name!r}", field=str(name))
    for name, check in fields.items():
        if name not in action:
            raise InvalidAction(f"{kind} needs the field {name!r}", field=name)
        problem = _problem(action[name], check)
        if problem:
            raise InvalidAction(f"{name} {problem}", field=name)
    return kind


def options_schema(**properties: dict[str, Any]) -> dict[str, Any]:
    """Return the JSON Schema of a game's options object: these properties and no other."""
    return {"type": "object", "properties": properties, "additionalProperties": False}


def options(given: Any, schema: Mapping[str, Any]) -> dict[str, Any]:
    """Return `given` with the defaults of `schema` filled in; raise OptionError for an
    unknown option or a value outside a property's `enum` or boolean `type`. (Checks a
    schema cannot state stay in the game.)"""
    given = {} if given is None else given
    if not isinstance(given, dict):
        raise OptionError("options", "must be an object")
    props = schema["properties"]
    for name in given:
        if name not in props:
            raise OptionError(str(name), "unknown option")
    out = {name: prop.get("default") for name, prop in props.items()} | given
    for name, prop in props.items():
        if "enum" in prop and out[name] not in prop["enum"]:
            raise OptionError(name, f"must be one of {list(prop['enum'])}")
        if prop.get("type") == "boolean" and not isinstance(out[name], bool):
            raise OptionError(name, "must be true or false")
    return out


def players(count: Any, name: str, low: int, high: int) -> None:
    """Raise OptionError unless `count` is a whole number from `low` to `high`."""
    if isinstance(count, bool) or not isinstance(count, int) or not low <= count <= high:
        raise OptionError("players", f"{name} takes {low} to {high} players")

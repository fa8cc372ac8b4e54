"""Random valid values for the simple JSON Schemas that `legal()` publishes.

Used by the reference bot and by the random-playout tests, so both exercise the rules
the way a client that reads only `GET .../legal` would.
"""

from __future__ import annotations

from typing import Any, Protocol


class Picker(Protocol):
    def choice(self, seq: Any) -> Any: ...
    def randint(self, a: int, b: int) -> int: ...
    def random(self) -> float: ...


def value_for(schema: dict[str, Any], pick: Picker) -> Any:
    """Return a random value that satisfies a simple JSON Schema (const, enum, integer,
    boolean, object (a property not `required` present or not, at random), array of those
    (or of `const`s capped by `allOf` `maxContains`), and `oneOf` whose branches are such
    schemas)."""
    if "oneOf" in schema:
        return value_for(pick.choice(schema["oneOf"]), pick)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return pick.choice(schema["enum"])
    kind = schema.get("type")
    if kind == "integer":
        return pick.randint(schema.get("minimum", 0), schema.get("maximum", 100))
    if kind == "boolean":
        return pick.random() < 0.5
    if kind == "object":
        props = schema.get("properties", {})
        needed = schema.get("required", [])
        chosen = [name for name in props if name in needed or pick.random() < 0.5]
        return {name: value_for(props[name], pick) for name in chosen}
    if kind == "array" and "allOf" in schema:
        return _capped_list(schema, pick)
    if kind == "array":
        low, high = schema.get("minItems", 0), schema.get("maxItems", schema.get("minItems", 0))
        return [value_for(schema["items"], pick) for _ in range(pick.randint(low, high))]
    raise NotImplementedError(f"no generator for schema {schema}")


def _capped_list(schema: dict[str, Any], pick: Picker) -> list[Any]:
    """Return a random list whose items are `const`s each capped by a `maxContains`."""
    pool = [cap["contains"]["const"] for cap in schema["allOf"] for _ in range(cap["maxContains"])]
    low = schema.get("minItems", 0)
    size = pick.randint(low, max(low, min(schema.get("maxItems", len(pool)), len(pool))))
    out = []
    for _ in range(size):
        out.append(pool.pop(pick.randint(0, len(pool) - 1)))
    return out


def random_action(specs: list[dict[str, Any]], pick: Picker) -> dict[str, Any]:
    """Return a random action among published specs ({type, schema, choices}): one of the
    listed choices, or a value built from the schema."""
    spec = pick.choice(specs)
    if spec.get("choices"):
        return pick.choice(spec["choices"])
    return value_for(spec["schema"], pick)

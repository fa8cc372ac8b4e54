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
    boolean, object, array of those, and `oneOf` whose branches are such schemas)."""
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
        return {name: value_for(props[name], pick) for name in schema.get("required", props)}
    if kind == "array":
        low, high = schema.get("minItems", 0), schema.get("maxItems", schema.get("minItems", 0))
        return [value_for(schema["items"], pick) for _ in range(pick.randint(low, high))]
    raise NotImplementedError(f"no generator for schema {schema}")


def random_action(specs: list[dict[str, Any]], pick: Picker) -> dict[str, Any]:
    """Return a random action among published specs ({type, schema, choices}): one of the
    listed choices, or a value built from the schema."""
    spec = pick.choice(specs)
    if spec.get("choices"):
        return pick.choice(spec["choices"])
    return value_for(spec["schema"], pick)

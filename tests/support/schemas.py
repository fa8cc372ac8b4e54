"""JSON Schema checks for tests that validate thousands of actions: each distinct schema is
checked against the 2020-12 meta-schema once and its validator built once (what
`jsonschema.validate` does on every call, the most of a playout test's time)."""

from __future__ import annotations

import functools
import json
from typing import Any

import jsonschema


@functools.cache
def _validator_of(text: str) -> jsonschema.Draft202012Validator:
    schema = json.loads(text)
    jsonschema.Draft202012Validator.check_schema(schema)  # a valid 2020-12 schema
    return jsonschema.Draft202012Validator(schema)


def validator(schema: dict[str, Any]) -> jsonschema.Draft202012Validator:
    """The validator of `schema`, which is checked to be a valid 2020-12 schema first."""
    return _validator_of(json.dumps(schema, sort_keys=True))


def validate(instance: Any, schema: dict[str, Any]) -> None:
    """As `jsonschema.validate(instance, schema)`: raise if the schema is not a valid
    2020-12 schema or `instance` does not match it."""
    validator(schema).validate(instance)

"""Swagger UI at `/docs/`, with "Try it out" working on every route.

Swagger UI 5 leaves a parameter given by `$ref` at the path level unresolved (it shows as
an unnamed field and sends `/v1/games/{id}` literally), and fills optional headers with
their examples, so every call sent the same `Idempotency-Key` (422 on the second body) and
`If-Match: "12"` (412). It therefore reads `/docs/openapi.json`: `openapi.yaml` with each
parameter written out in every operation and no example filled into an optional header.
The contract itself is still `/openapi.yaml`. The Authorize button takes the bearer token,
kept across reloads (`persistAuthorization`).
"""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from flask import Blueprint, jsonify
from flask_swagger_ui import get_swaggerui_blueprint

METHODS = {"get", "put", "post", "delete", "patch", "options", "head", "trace"}


def for_ui(spec: dict[str, Any]) -> dict[str, Any]:
    """Return a copy of `spec` whose operations list their parameters in full."""
    out = copy.deepcopy(spec)
    shared = out.get("components", {}).get("parameters", {})

    def resolve(p: dict[str, Any]) -> dict[str, Any]:
        if "$ref" in p:
            p = copy.deepcopy(shared[p["$ref"].rsplit("/", 1)[-1]])
        if p.get("in") == "header" and not p.get("required"):
            p.pop("example", None)  # an example is not a value to send on every call
            p.pop("examples", None)
        return p

    for item in out.get("paths", {}).values():
        common = [resolve(p) for p in item.pop("parameters", [])]
        for method, op in item.items():
            if method not in METHODS:
                continue
            own = [resolve(p) for p in op.get("parameters", [])]
            named = {(p["name"], p["in"]) for p in own}
            op["parameters"] = [p for p in common if (p["name"], p["in"]) not in named] + own
    return out


@cache
def _ui_spec(path: str) -> dict[str, Any]:
    return for_ui(yaml.safe_load(Path(path).read_text("utf-8")))


def blueprint(spec_path: Path) -> Blueprint:
    """Swagger UI at /docs, reading the filled-in copy at /docs/openapi.json."""
    bp = get_swaggerui_blueprint(
        "/docs",
        "/docs/openapi.json",
        config={"app_name": "marketfold API", "persistAuthorization": True},
    )
    bp.add_url_rule("/openapi.json", "ui_spec", lambda: jsonify(_ui_spec(str(spec_path))))
    return bp

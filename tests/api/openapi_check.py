"""Check API answers against openapi.yaml: status, content type, headers, body and problem code.

    check_response("GET", "/v1/games/{id}", 200, body)       # body only
    assert_matches("Game", body)                              # a components schema by name
    check(client.get(f"/v1/games/{gid}"), "GET", "/v1/games/{id}")   # a whole Flask response
    CheckedClient(client).get("/v1/games/{id}", gid, token)  # call, and check the answer
    matches("GobconAction", action)                           # True/False, fast, for loops

Bodies are validated with JSON Schema 2020-12 (the dialect of OpenAPI 3.1); `$ref`s resolve
inside the spec. An error response's `code` must be listed in its `x-problem-codes`.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"
SPEC_URI = "urn:marketfold:openapi"
METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}


@cache
def spec() -> dict[str, Any]:
    """Return the parsed openapi.yaml (libyaml's parser where PyYAML has it: the same safe
    loading, seven times faster on this 600 kB file). Shared: read it, never change it."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(SPEC_PATH.read_text("utf-8"), Loader=loader)


@cache
def _registry() -> Registry:
    resource = Resource.from_contents(spec(), default_specification=DRAFT202012)
    return Registry().with_resource(SPEC_URI, resource)


def _escape(segment: str) -> str:
    return segment.replace("~", "~0").replace("/", "~1")


def _pointer(*segments: str) -> str:
    return "/" + "/".join(_escape(s) for s in segments)


def _deref(node: dict[str, Any]) -> tuple[dict[str, Any], tuple[str, ...] | None]:
    """Follow a local `$ref`; return the node and its path in the spec (None if not a ref)."""
    ref = node.get("$ref")
    if ref is None:
        return node, None
    assert ref.startswith("#/"), f"only local refs are supported: {ref}"
    path = tuple(s.replace("~1", "/").replace("~0", "~") for s in ref[2:].split("/"))
    target: Any = spec()
    for segment in path:
        target = target[segment]
    return target, path


def response_spec(method: str, path: str, status: int) -> tuple[dict[str, Any], tuple[str, ...]]:
    """Return the Response Object of (method, path, status) and its path in the spec."""
    operation = spec()["paths"][path][method.lower()]
    responses = operation["responses"]
    assert str(status) in responses, f"{method} {path} documents no {status}: {sorted(responses)}"
    where = ("paths", path, method.lower(), "responses", str(status))
    response, ref_path = _deref(responses[str(status)])
    return response, ref_path or where


@cache
def _validator(pointer: str) -> Draft202012Validator:
    schema = {"$ref": f"{SPEC_URI}#{quote(pointer)}"}
    return Draft202012Validator(schema, registry=_registry())


def _validate(pointer: str, body: Any, what: str) -> None:
    errors = sorted(_validator(pointer).iter_errors(body), key=lambda e: list(e.absolute_path))
    assert not errors, f"{what} breaks the spec:\n" + "\n".join(
        f"  at {'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}" for e in errors
    )


def check_response(
    method: str, path: str, status: int, body: Any, content_type: str | None = None
) -> None:
    """Assert `body` fits the schema of (method, path, status) for `content_type`."""
    response, where = response_spec(method, path, status)
    content = response.get("content", {})
    if content_type is None:
        assert len(content) == 1, f"{method} {path} {status}: say which content type"
        content_type = next(iter(content))
    assert content_type in content, (
        f"{method} {path} {status} is documented as {sorted(content)}, not {content_type}"
    )
    what = f"{method} {path} {status} ({content_type})"
    _validate(_pointer(*where, "content", content_type, "schema"), body, what)
    codes = response.get("x-problem-codes")
    if codes is not None:
        assert body["status"] == status, f"{what}: problem status {body['status']}"
        assert body["code"] in codes, f"{what}: code {body['code']!r} is not one of {codes}"


def assert_matches(target: str | tuple[str, str, int], body: Any) -> None:
    """Assert `body` fits a components schema (by name) or a (method, path, status) response."""
    if isinstance(target, str):
        assert target in spec()["components"]["schemas"], f"no schema {target!r}"
        _validate(_pointer("components", "schemas", target), body, f"schema {target}")
    else:
        check_response(*target, body)


def matches(name: str, body: Any) -> bool:
    """Return True if `body` fits the components schema `name` (no message; for fast loops)."""
    return _validator(_pointer("components", "schemas", name)).is_valid(body)


def _check_headers(response: dict[str, Any], headers: Any, what: str) -> None:
    for name, ref in response.get("headers", {}).items():
        header, where = _deref(ref)
        assert where is not None, f"{what}: declare header {name} under components/headers"
        value = headers.get(name)
        if value is None:
            assert not header.get("required"), f"{what}: required header {name} is missing"
            continue
        parsed: Any = int(value) if header["schema"].get("type") == "integer" else value
        _validate(_pointer(*where, "schema"), parsed, f"{what} header {name}")


def check(resp: Any, method: str, path: str) -> Any:
    """Assert a Flask test response fits the spec (status, type, headers, body); return it."""
    what = f"{method} {path} {resp.status_code}"
    response, _ = response_spec(method, path, resp.status_code)
    if "content" not in response:  # e.g. 304: headers only
        assert resp.get_data() == b"", f"{what}: documented without a body, but has one"
        _check_headers(response, resp.headers, what)
        return resp
    content_type = resp.mimetype
    assert content_type in response.get("content", {}), (
        f"{what}: content type {content_type} is not documented"
    )
    _check_headers(response, resp.headers, what)
    if content_type == "text/event-stream":
        _check_events(response, resp.get_data(as_text=True), method, path, resp.status_code)
        return resp
    body = resp.get_json() if content_type.endswith("json") else resp.get_data(as_text=True)
    check_response(method, path, resp.status_code, body, content_type)
    return resp


def _check_events(response: dict[str, Any], text: str, method: str, path: str, status: int):
    """Check each event of an SSE body (as a parser hands it over: id, event, data) against
    the schema, and its `data` against the schema's `contentSchema`."""
    schema, _ = _deref(response["content"]["text/event-stream"]["schema"])
    inner = schema["properties"]["data"]["contentSchema"]["$ref"].rsplit("/", 1)[1]
    for frame in sse_frames(text):
        if "data" not in frame:
            continue  # `retry:` and heartbeat comments carry no event
        event = {"event": "message", **{k: frame[k] for k in ("id", "event", "data") if k in frame}}
        check_response(method, path, status, event, "text/event-stream")
        assert_matches(inner, json.loads(event["data"]))


class CheckedClient:
    """A Flask test client that checks every answer against the spec."""

    def __init__(self, client: Any):
        self.client = client

    def call(
        self, method: str, path: str, gid: str = "", token: str | None = None, **kwargs: Any
    ) -> Any:
        """Call `path` (a spec template; `{id}` becomes `gid`, each `{name}` of a `where`
        mapping its value) and check the answer."""
        headers = dict(kwargs.pop("headers", {}))
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        url = path.replace("{id}", gid)
        for name, value in kwargs.pop("where", {}).items():
            url = url.replace("{" + name + "}", value)
        resp = self.client.open(url, method=method, headers=headers, **kwargs)
        return check(resp, method, path)

    def get(self, path: str, gid: str = "", token: str | None = None, **kwargs: Any) -> Any:
        """GET `path` and check the answer."""
        return self.call("GET", path, gid, token, **kwargs)

    def post(self, path: str, gid: str = "", token: str | None = None, **kwargs: Any) -> Any:
        """POST to `path` and check the answer."""
        return self.call("POST", path, gid, token, **kwargs)

    def delete(self, path: str, gid: str = "", token: str | None = None, **kwargs: Any) -> Any:
        """DELETE `path` and check the answer."""
        return self.call("DELETE", path, gid, token, **kwargs)

    def patch(self, path: str, gid: str = "", token: str | None = None, **kwargs: Any) -> Any:
        """PATCH `path` and check the answer."""
        return self.call("PATCH", path, gid, token, **kwargs)


def sse_frames(text: str) -> list[dict[str, str]]:
    """Split a text/event-stream body into frames: {field: value} per blank-line-ended
    block; comment lines (`: ...`) become {"comment": ...}."""
    frames, frame = [], {}
    for line in text.split("\n"):
        if line == "":
            if frame:
                frames.append(frame)
            frame = {}
        elif line.startswith(":"):
            frame["comment"] = line[1:].strip()
        else:
            name, _, value = line.partition(":")
            frame[name] = value.removeprefix(" ")
    if frame:
        frames.append(frame)
    return frames


def expect(resp: Any, status: int, code: str | None = None) -> Any:
    """Assert an answer's status (and problem code); return its JSON."""
    body = resp.get_json()
    assert resp.status_code == status, body
    if code is not None:
        assert body["code"] == code, body
    return body


def error_table() -> set[tuple[int, str]]:
    """Return the (status, code) rows of the error table in info.description."""
    rows = re.findall(r"^\| (\d{3}) \| `([a-z_]+)` \|", spec()["info"]["description"], re.M)
    return {(int(status), code) for status, code in rows}


def documented_codes() -> set[tuple[int, str]]:
    """Return (status, code) for every `x-problem-codes` entry of every operation."""
    out = set()
    for item in spec()["paths"].values():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            for status, ref in operation["responses"].items():
                response, _ = _deref(ref)
                out |= {(int(status), code) for code in response.get("x-problem-codes", [])}
    return out

"""A bundle that is not one is refused with 422 naming its first bad path, by
`POST /v1/verify` and `marketfold verify` alike; never a 500, never a traceback.

The cases are the 17 malformed bundles of issue #20 (each answered 500 before), and
bundles beyond the bounds of events/bundle.py."""

from __future__ import annotations

import json

import pytest

from cli.main import main as cli_main
from events import audit, bundle, bundle_schema, jsonshape
from tests.events.bundles import real_bundle

FORMAT = audit.FORMAT


def first_of(b: dict, kind: str) -> int:
    return next(i for i, e in enumerate(b["events"]) if e.get("command", {}).get("type") == kind)


def set_in(b: dict, path: list, value) -> dict:
    target = b
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return b


# (name, how to spoil a real bundle `b` (`at`: where its first action and its end are),
#  the path named)
CASES = [
    ("simplest", lambda b, at: {"format": FORMAT, "events": [1]}, "game"),
    ("events of numbers", lambda b, at: {**b, "events": [1]}, "events[0]"),
    ("game a string", lambda b, at: {**b, "game": "g_1"}, "game"),
    ("an event a string", lambda b, at: set_in(b, ["events", 3], "x"), "events[3]"),
    ("an event a list", lambda b, at: set_in(b, ["events", 3], []), "events[3]"),
    ("an event null", lambda b, at: set_in(b, ["events", 3], None), "events[3]"),
    ("data a list", lambda b, at: set_in(b, ["events", 3, "data"], []), "events[3].data"),
    ("created data a list", lambda b, at: set_in(b, ["events", 0, "data"], [1]), "events[0].data"),
    ("seed a number", lambda b, at: {**b, "seed": 7}, "seed"),
    ("seed a list", lambda b, at: {**b, "seed": ["ab"]}, "seed"),
    (
        "command a string",
        lambda b, at: set_in(b, ["events", 1, "command"], "x"),
        "events[1].command",
    ),
    ("command a list", lambda b, at: set_in(b, ["events", 1, "command"], []), "events[1].command"),
    ("draws empty", lambda b, at: set_in(b, ["events", 1, "draws"], []), "events[1].draws"),
    (
        "expire key a list",
        lambda b, at: set_in(b, ["events", 1, "command"], {"type": "expire", "key": ["k"]}),
        "events[1].command.key",
    ),
    (
        "ruleset a list",
        lambda b, at: set_in(b, ["events", 0, "data", "ruleset"], ["goblin-market"]),
        "events[0].data.ruleset",
    ),
    ("events an object", lambda b, at: {**b, "events": {"1": {}}}, "events"),
    (
        "ended without its seed",
        lambda b, at: b["events"][-1]["data"].pop("seed") and b,
        "events[{last}].data.seed",
    ),
    # more of the same kind, found by the fuzz test or by reading events/audit.py
    ("seq a string", lambda b, at: set_in(b, ["events", 2, "seq"], "3"), "events[2].seq"),
    ("at not a time", lambda b, at: set_in(b, ["events", 2, "at"], "noon"), "events[2].at"),
    (
        "at in year 9999",
        lambda b, at: set_in(b, ["events", 2, "at"], "9999-12-31T23:59:59Z"),
        "events[2].at",
    ),
    (
        "action a string",
        lambda b, at: set_in(b, ["events", at["act"], "command", "action"], "bid"),
        "events[{act}].command.action",
    ),
    (
        "players a bool",
        lambda b, at: set_in(b, ["events", 0, "data", "players"], True),
        "events[0].data.players",
    ),
    ("an unknown field", lambda b, at: set_in(b, ["events", 4, "extra"], 1), "events[4].extra"),
    ("not an object", lambda b, at: [b], "_body"),
]


def spoil(b: dict, spoiler, path: str) -> tuple[object, str]:
    at = {"act": first_of(b, "act"), "last": len(b["events"]) - 1}
    return spoiler(b, at), path.format(**at)


@pytest.mark.parametrize("name,spoiler,path", CASES, ids=[c[0] for c in CASES])
def test_a_malformed_bundle_is_refused_naming_its_first_bad_path(
    client, app, tmp_path, capsys, name, spoiler, path
):
    bad, path = spoil(real_bundle(client, app), spoiler, path)
    res = client.post("/v1/verify", json=bad)
    assert res.status_code == 422, res.get_json()
    assert res.mimetype == "application/problem+json"
    problem = res.get_json()
    assert problem["code"] == "invalid_body"
    assert list(problem["errors"]) == [path], problem
    assert path in problem["detail"]

    file = tmp_path / "bad.json"
    file.write_text(json.dumps(bad))
    capsys.readouterr()
    assert cli_main(["verify", str(file)]) == 2
    err = capsys.readouterr().err
    assert f"is not a bundle: {path}: {problem['errors'][path][0]}" in err, err
    assert "Traceback" not in err


def test_the_bounds_are_named(client, app):
    b = real_bundle(client, app)
    many = {**b, "events": b["events"] * (bundle_schema.MAX_EVENTS // len(b["events"]) + 1)}
    deep = real_bundle(client, app)
    deep["events"][5]["data"]["x"] = json.loads("[" * 11 + "]" * 11)
    large = real_bundle(client, app)
    large["events"][6]["data"]["x"] = "y" * bundle.MAX_EVENT_BYTES
    for bad, path, reason in (
        (many, "events", f"at most {bundle_schema.MAX_EVENTS} items"),
        (deep, "events[5]", f"deeper than {bundle.MAX_EVENT_DEPTH}"),
        (large, "events[6]", f"larger than {bundle.MAX_EVENT_BYTES} bytes"),
    ):
        res = client.post("/v1/verify", json=bad)
        assert res.status_code == 422, res.get_json()
        (said,) = res.get_json()["errors"][path]
        assert reason in said
    just_deep_enough = real_bundle(client, app)
    just_deep_enough["events"][5]["data"]["x"] = json.loads("[" * 10 + "]" * 10)
    answer = client.post("/v1/verify", json=just_deep_enough).get_json()
    assert answer["checks"][0]["ok"] is False  # a bundle: verified, and the hash fails


def bracket_heavy(size: int) -> bytes:
    head = b'{"format":"marketfold-bundle/1","game":{"id":"g"},"seed":null,"events":['
    unit = b"[" * 10 + b"]" * 10 + b","
    return head + unit * ((size - len(head)) // len(unit)) + b"1]}"


def test_a_bracket_heavy_body_is_refused_before_it_is_decoded(client, tmp_path, capsys):
    res = client.post("/v1/verify", data=bracket_heavy(31_000_000), content_type="application/json")
    assert res.status_code == 413 and res.get_json()["code"] == "body_too_large"
    within = bracket_heavy(15_000_000)  # under the body limit: too many arrays to decode
    res = client.post("/v1/verify", data=within, content_type="application/json")
    assert res.status_code == 422, res.get_json()
    assert res.get_json()["errors"] == {
        "_body": [f"more than {bundle.MAX_CONTAINERS} arrays and objects"]
    }
    file = tmp_path / "brackets.json"
    file.write_bytes(bracket_heavy(31_000_000))
    capsys.readouterr()
    assert cli_main(["verify", str(file)]) == 2
    assert f"_body: more than {bundle.MAX_CONTAINERS} arrays" in capsys.readouterr().err
    file.write_text("[" * 100_000)  # deeper than the decoder can go
    assert cli_main(["verify", str(file)]) == 2
    assert "Traceback" not in capsys.readouterr().err


def resolved(node, spec):
    """Return a spec schema with its $refs inlined and its prose (descriptions,
    examples) left out: what a validator reads."""
    if isinstance(node, dict):
        if "$ref" in node:
            return resolved(spec["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]], spec)
        prose = {"description", "examples", "example", "title"}
        return {k: resolved(v, spec) for k, v in node.items() if k not in prose}
    if isinstance(node, list):
        return [resolved(v, spec) for v in node]
    return node


def test_openapi_publishes_the_schema_the_verifier_holds_bundles_to():
    from tests.api.openapi_check import spec as openapi_spec

    spec = openapi_spec()  # parsed once per process
    assert resolved(spec["components"]["schemas"]["Bundle"], spec) == bundle_schema.SCHEMA
    export = spec["paths"]["/v1/games/{id}/export"]["get"]["responses"]["200"]["content"]
    assert export["application/json"]["schema"] == {"$ref": "#/components/schemas/Bundle"}
    # verify takes the downloaded bytes: the file of a Bundle, whatever its Content-Type
    body = spec["paths"]["/v1/verify"]["post"]["requestBody"]["content"]
    assert body["application/octet-stream"]["schema"] == {"$ref": "#/components/schemas/BundleFile"}
    assert spec["components"]["schemas"]["BundleFile"]["contentMediaType"] == "application/json"


def keywords(schema) -> set[str]:
    found = set()
    if isinstance(schema, dict):
        found |= set(schema) - {"properties"}
        for key, value in schema.items():
            children = value.values() if key == "properties" else [value]
            for child in children:
                found |= keywords(child)
    elif isinstance(schema, list):
        for child in schema:
            found |= keywords(child)
    return found


def test_the_checker_reads_every_keyword_the_schema_uses():
    assert keywords(bundle_schema.SCHEMA) <= jsonshape.KEYWORDS | {"properties"}


# the checker's own: a valid date-time the audit cannot add a deadline to; not an object
SCHEMA_CASES = [c for c in CASES if c[0] not in ("at in year 9999", "not an object")]


@pytest.mark.parametrize("name,spoiler,path", SCHEMA_CASES, ids=[c[0] for c in SCHEMA_CASES])
def test_a_standard_validator_refuses_the_same_bundles(client, app, name, spoiler, path):
    """jsonschema (Draft 2020-12) agrees with the checker on the published schema."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(
        bundle_schema.SCHEMA, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    good = real_bundle(client, app)
    assert validator.is_valid(good)
    bad, _ = spoil(good, spoiler, path)
    assert not validator.is_valid(bad)


def test_the_command_line_names_the_bad_path_without_a_traceback(client, app, tmp_path):
    import subprocess
    import sys

    from tests.conftest import ROOT

    bad = real_bundle(client, app)
    bad["events"][3]["data"] = []
    file = tmp_path / "bad.json"
    file.write_text(json.dumps(bad))
    run = subprocess.run(
        [sys.executable, "-m", "cli", "verify", str(file)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr == (
        f"marketfold verify: {file} is not a bundle: events[3].data: must be an object\n"
    )

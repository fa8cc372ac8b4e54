"""openapi.yaml is a valid OpenAPI 3.1 document that names every route and code."""

from __future__ import annotations

import re

import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

import games
from cli.compose import create_app
from games.base import InvalidAction
from tests.api.openapi_check import (
    METHODS,
    assert_matches,
    check_response,
    documented_codes,
    error_table,
    matches,
    spec,
)
from tests.api.spec_helpers import (
    ACTIONS,
    GAME,
    JOIN,
    NOT_LIMITED,
    PATH_NAMES,
    RATE_HEADERS,
    ROOT,
    RULESETS,
    UNDOCUMENTED,
    UNROUTED,
    action_branches,
    action_types,
    component,
    parser,
)

# --- the document itself -------------------------------------------------------------------


def test_the_spec_is_a_valid_openapi_3_1_document():
    assert spec()["openapi"] == "3.1.0"
    validate(spec())


def test_the_spec_has_exactly_the_apps_routes_with_view_names_as_operation_ids():
    app = create_app(
        {"REDIS_URL": "redis://127.0.0.1:1/0", "RQ_REDIS_URL": "redis://127.0.0.1:1/0"}
    )
    routed = {}
    for rule in app.url_map.iter_rules():
        if rule.endpoint.split(".")[0] in UNDOCUMENTED:
            continue
        path = re.sub(
            r"<(?:[^:<>]+:)?([^<>]+)>", lambda m: "{" + PATH_NAMES.get(m[1], m[1]) + "}", rule.rule
        )
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            routed[(method, path)] = rule.endpoint.rsplit(".", 1)[-1]
    documented = {
        (method.upper(), path): operation["operationId"]
        for path, item in spec()["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    }
    assert set(documented) == set(routed)
    assert documented == routed


def test_every_documented_problem_code_is_in_the_error_table_and_back():
    table = error_table()
    assert documented_codes() <= table
    assert {code for _, code in table} - {c for _, c in documented_codes()} == UNROUTED


def test_every_code_the_service_raises_is_in_the_error_table():
    raised: set[tuple[int | None, str]] = set()
    sources = [*ROOT.glob("service/*.py"), *ROOT.glob("games/**/*.py"), *ROOT.glob("events/*.py")]
    for source in sources:
        text = source.read_text("utf-8")
        raised |= {
            (int(s), c) for s, c in re.findall(r"[Pp]roblem\(\s*(\d{3}),\s*\"([a-z_]+)\"", text)
        }
        for first, other in re.findall(
            r"\bcode\s*=\s*\"([a-z_]+)\"(?:\s+if\s+[^\n]+?\s+else\s+\"([a-z_]+)\")?", text
        ):
            raised |= {(None, c) for c in (first, other) if c}
        raised |= {(int(s), c) for s, c in re.findall(r"\b(\d{3}): \"([a-z_]+)\"", text)}
    table = error_table()
    codes = {code for _, code in table}
    checks = spec()["components"]["schemas"]["VerifyReport"]["properties"]["checks"]["items"]
    codes |= set(checks["properties"]["code"]["enum"]) - {
        None
    }  # a failed check's reason, not a problem
    missing = {(s, c) for s, c in raised if (s, c) not in table and not (s is None and c in codes)}
    assert not missing, f"raised but not in the error table: {sorted(missing, key=str)}"


def test_every_example_in_the_spec_fits_its_schema():
    checked = 0
    for path, item in spec()["paths"].items():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            for media in operation.get("requestBody", {}).get("content", {}).values():
                name = media["schema"]["$ref"].rsplit("/", 1)[-1]
                examples = [e["value"] for e in media.get("examples", {}).values()]
                for example in [*examples, *([media["example"]] if "example" in media else [])]:
                    assert_matches(name, example)
                    checked += 1
            for status, ref in operation["responses"].items():
                response = spec()["components"]["responses"].get(
                    ref.get("$ref", "").rsplit("/", 1)[-1], ref
                )
                for content_type, media in response.get("content", {}).items():
                    if "example" in media:
                        check_response(method, path, int(status), media["example"], content_type)
                        checked += 1
    for kind in ("parameters", "headers"):
        for name, item in spec()["components"][kind].items():
            if "example" in item:
                errors = list(Draft202012Validator(item["schema"]).iter_errors(item["example"]))
                assert not errors, f"{kind} {name}: example {item['example']!r}: {errors}"
                checked += 1
    assert checked > 50


def test_every_ruleset_has_an_action_schema_a_view_schema_and_documented_options():
    schemas = spec()["components"]["schemas"]
    intro = spec()["info"]["description"]
    rulesets_doc = spec()["paths"][RULESETS]["get"]["description"]
    post_doc = spec()["paths"][ACTIONS]["post"]["description"]
    for ruleset, game in games.REGISTRY.items():
        action, view = component(ruleset, "Action"), component(ruleset, "View")
        assert action in schemas and view in schemas, ruleset
        assert schemas[view]["properties"]["game"] == {"const": ruleset}
        assert f"`{action}`" in post_doc and f"`{action}`" in schemas["Action"]["description"]
        assert f"`{view}`" in schemas["Game"]["properties"]["view"]["description"]
        assert f"| `{ruleset}` | {game.min_players}-{game.max_players} |" in intro
        # the static schema names exactly the types the ruleset's parser knows
        assert sorted(action_types(action)) == sorted(parser(ruleset).SHAPES), ruleset
        for branch in action_branches(action):
            kind = branch["properties"]["type"]["const"]
            fields = set(parser(ruleset).SHAPES[kind])
            assert set(branch["properties"]) == {"type", *fields}, (ruleset, kind)
            assert set(branch["required"]) == {"type", *fields}, (ruleset, kind)
            assert branch["additionalProperties"] is False
        # every option is described on GET /v1/rulesets
        section = rulesets_doc.split(
            f"- `{ruleset}` ({game.min_players}-{game.max_players} players)"
        )
        assert len(section) == 2, f"GET /v1/rulesets does not describe {ruleset}"
        for option in game.options_schema["properties"]:
            assert f"`{option}`" in section[1].split("\n- `")[0], (ruleset, option)
        Draft202012Validator.check_schema(game.options_schema)


def test_there_is_an_example_of_every_action_of_every_ruleset_and_the_rules_accept_its_shape():
    media = spec()["paths"][ACTIONS]["post"]["requestBody"]["content"]["application/json"]
    seen = set()
    for name, example in media["examples"].items():
        ruleset = next(r for r in games.REGISTRY if name.startswith(r + "-"))
        action = example["value"]
        assert name == f"{ruleset}-{action['type']}", name
        assert_matches(component(ruleset, "Action"), action)
        assert_matches("Action", action)
        try:
            assert parser(ruleset).parse(action) == action["type"]
        except InvalidAction as e:  # the shape the server checks (422) must accept it too
            raise AssertionError(f"{name}: the rules refuse its shape: {e}") from e
        seen.add((ruleset, action["type"]))
    every = {(r, t) for r in games.REGISTRY for t in action_types(component(r, "Action"))}
    assert every - seen == set(), f"actions without an example: {sorted(every - seen)}"


def test_every_rate_limited_route_documents_429_and_the_ratelimit_headers():
    for path, item in spec()["paths"].items():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            responses = operation["responses"]
            if path in NOT_LIMITED:
                assert "429" not in responses, path
                continue
            refused = "StreamRefused" if path.endswith(("/stream", "/feed")) else "RateLimited"
            if "requestBody" in operation:
                refused = "UploadRefused"  # also too many bodies on their way (api.uploads)
            if (method, path) == ("post", "/v1/games/{id}/chat"):
                refused = "ChatRefused"  # the table's own limit, too
            if (method, path) == ("post", "/v1/games"):
                refused = "CreateRefused"  # invitations have limits of their own (#49.5)
            assert responses["429"] == {"$ref": f"#/components/responses/{refused}"}, path
            for status, ref in responses.items():
                response = spec()["components"]["responses"].get(
                    ref.get("$ref", "").rsplit("/", 1)[-1], ref
                )
                missing = RATE_HEADERS - set(response.get("headers", {}))
                assert not missing, f"{method.upper()} {path} {status} lacks {missing}"


def test_the_checker_refuses_answers_the_spec_does_not_allow():
    problem = {
        "type": "https://marketfold.dev/problems/game_over",
        "title": "game over",
        "status": 409,
        "detail": "the game is finished",
        "code": "game_over",
    }
    check_response("POST", ACTIONS, 409, problem)
    with pytest.raises(AssertionError, match="not one of"):
        check_response("POST", JOIN, 409, problem)
    with pytest.raises(AssertionError, match="documents no 418"):
        check_response("GET", GAME, 418, problem)
    with pytest.raises(AssertionError, match="breaks the spec"):
        check_response("GET", "/healthz", 200, {"status": "down"})
    with pytest.raises(AssertionError, match="breaks the spec"):
        assert_matches("Event", {**problem, "seq": 0})
    for name, action in [  # the action schemas are not vacuous
        ("GoblinMarketAction", {"type": "bid", "amount": 0}),
        ("GoblinMarketAction", {"type": "take_one", "card": "The Excuse"}),
        ("GoblinMarketAction", {"type": "pass", "amount": 1}),
        (
            "SorcerousFuturesAction",
            {"type": "start_auction", "card": "Ace of Suns", "format": "open"},
        ),
        ("SorcerousFuturesAction", {"type": "give_crown", "seat": 1, "crown": "The Sailor"}),
        ("SorcerousFuturesAction", {"type": "sealed_bid", "amount": True}),
        ("BlackMarketAction", {"type": "produce", "goods": ["pink"]}),
        ("BlackMarketAction", {"type": "produce", "goods": ["red"] * 6}),
        ("BlackMarketAction", {"type": "bid", "goods": ["red", "blue"]}),
        ("BlackMarketAction", {"type": "propose", "give": [], "take": ["red"]}),
        ("BlackMarketAction", {"type": "sell", "vp": {"red": 5}}),
        ("BlackMarketAction", {"type": "shift", "colour": "red", "direction": "left"}),
        ("GobconAction", {"type": "play", "card": "Not So Fast!"}),
        ("GobconAction", {"type": "target", "seat": "1"}),
        ("GobconAction", {"type": "bid", "amount": 1}),
    ]:
        assert not matches(name, action), (name, action)

"""The rules openapi.yaml keeps so that generated clients work (docs/clients.md, "Adding a
route"): every route added later is held to them."""

from typing import Any

import games
from tests.api.openapi_check import METHODS, _deref, error_table, spec
from tests.api.spec_helpers import component


def operations() -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, op)
        for path, item in spec()["paths"].items()
        for method, op in item.items()
        if method in METHODS
    ]


def walk(node: Any, where: str = ""):
    """Yield (where, mapping) for every mapping in the document."""
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            yield from walk(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk(value, f"{where}/{i}")


def test_schema_titles_are_unique_across_the_document():
    seen: dict[str, str] = {}
    for where, node in walk(spec(), "#"):
        title = node.get("title")
        if "/example" in where or where == "#/info":  # bodies shown, and the API's own title
            continue
        if isinstance(title, str):  # (a property named `title` is a mapping)
            assert title not in seen, f"title {title!r} at {where} and at {seen[title]}"
            seen[title] = where


def test_every_operation_has_a_unique_snake_case_operation_id():
    ids = [op.get("operationId") for _, _, op in operations()]
    assert None not in ids
    assert len(ids) == len(set(ids))
    assert all(i.replace("_", "").isalnum() and i == i.lower() for i in ids)


def test_every_problem_answer_lists_its_codes_and_each_code_is_a_problem_code():
    names = set(spec()["components"]["schemas"]["ProblemCode"]["enum"])
    assert names == {code for _, code in error_table()}  # the enum is the table
    for path, method, op in operations():
        for status, ref in op["responses"].items():
            response, _ = _deref(ref)
            if "application/problem+json" not in response.get("content", {}):
                continue
            codes = response.get("x-problem-codes")
            assert codes, f"{method} {path} {status}: say which codes (x-problem-codes)"
            assert set(codes) <= names, f"{method} {path} {status}: {set(codes) - names}"
            assert all((int(status), c) in error_table() for c in codes), (method, path, status)
            # typed for clients: a named Problem whose `code` is an enum of exactly these
            ref = response["content"]["application/problem+json"]["schema"]["$ref"]
            named = spec()["components"]["schemas"][ref.rsplit("/", 1)[1]]
            assert ref.endswith("Problem") and named["allOf"][0] == {
                "$ref": "#/components/schemas/Problem"
            }, (method, path, status)
            assert named["allOf"][1]["properties"]["code"]["enum"] == codes, (method, path, status)


def test_every_operation_on_a_resource_is_reachable_by_an_openapi_link():
    linked = set()
    for _, _, op in operations():
        for ref in op["responses"].values():
            for link in _deref(ref)[0].get("links", {}).values():
                linked.add(link["operationId"])
    for path, method, op in operations():
        if "{" in path and "/me/" not in path:
            assert op["operationId"] in linked, f"{method} {path}: no link leads to it"


def test_game_creation_takes_each_rulesets_own_player_range_and_options():
    schemas = spec()["components"]["schemas"]
    mapping = schemas["GameCreate"]["discriminator"]["mapping"]
    assert set(mapping) == set(games.REGISTRY)
    for ruleset, game in games.REGISTRY.items():
        branch = schemas[component(ruleset, "GameCreate")]
        assert mapping[ruleset].endswith("/" + component(ruleset, "GameCreate"))
        players = branch["properties"]["players"]
        assert (players["minimum"], players["maximum"]) == (game.min_players, game.max_players)
        options = schemas[component(ruleset, "Options")]["properties"]
        assert options.keys() == game.options_schema["properties"].keys(), ruleset


def test_union_members_are_named_schemas_so_generators_name_them():
    for where, node in walk(spec()):
        for key in ("oneOf", "anyOf"):
            members = node.get(key, [])
            if members and "discriminator" in node:
                assert all("$ref" in m for m in members), where
                mapping = node["discriminator"]["mapping"].values()
                assert sorted(mapping) == sorted(m["$ref"] for m in members), where
            for m in members:  # an object inline in a union has no class name to take
                assert m.get("type") != "object" or "$ref" in m, f"{where}/{key}"


def test_a_whole_number_written_with_a_point_zero_is_that_integer(client):
    """JSON has one number type and JSON Schema calls 3.0 an integer: so does the API."""
    token = client.post("/v1/players", json={"name": "ana"}).get_json()["token"]
    body = {"ruleset": "gobcon", "players": 2.0, "decision_timeout_s": 60.0}
    created = client.post("/v1/games", json=body, headers={"Authorization": f"Bearer {token}"})
    assert created.status_code == 201, created.get_json()
    assert (created.get_json()["players"], created.get_json()["decision_timeout_s"]) == (2, 60)
    body["players"] = 2.5
    refused = client.post("/v1/games", json=body, headers={"Authorization": f"Bearer {token}"})
    assert refused.status_code == 422 and "players" in refused.get_json()["errors"]


def test_no_schema_uses_what_generators_mishandle():
    for where, node in walk(spec()["components"]["schemas"], "#/components/schemas"):
        if "/example" in where:
            continue
        assert "prefixItems" not in node, f"{where}: prefixItems (use items, minItems, maxItems)"
        assert not isinstance(node.get("const"), bool), f"{where}: a boolean const"
        kinds = node.get("type") if isinstance(node.get("type"), list) else [node.get("type")]
        if "object" in kinds and not {"properties", "$ref", "oneOf", "anyOf", "allOf"} & set(node):
            assert "additionalProperties" in node, f"{where}: say additionalProperties"
    for name in ("Event", "Bundle"):  # hashed as written: no type that re-serialises
        for where, node in walk(spec()["components"]["schemas"][name], name):
            assert node.get("format") != "date-time", where

"""Hypothesis posts arbitrary JSON to every write route: lone surrogates, numbers far
beyond 64 bits, NaN, deep nesting, wrong types in the route's own fields, not JSON at
all. Every answer must be a 4xx problem+json with `errors` in the one documented shape,
and must leave Redis exactly as it was (every key, every stream); a 2xx is allowed only
for a body the spec's request schema accepts.

Fixed seed (`derandomize=True`), a bounded number of examples per route
(docs/reliability.md, "What is fuzzed")."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from cli.compose import create_app
from tests.api.helpers import bearer, new_game, new_players, path_of, stored
from tests.api.openapi_check import spec
from tests.conftest import TEST_CONFIG
from tests.fuzzing import FUZZ
from tests.leagues.helpers import league_body, operator

FIELDS = [
    "name", "ruleset", "players", "options", "decision_timeout_s", "type", "amount", "player",
    "points", "table_size", "rounds", "start_at", "cadence_s", "goal", "edition", "cards",
]  # fmt: skip
TEXT = st.text(st.characters(exclude_categories=()), max_size=12)  # surrogates included
LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=2**63, max_value=10**400) | st.integers(max_value=-(2**63)),
    st.floats(),  # NaN and infinities too: Python's JSON reads them
    TEXT,
    st.sampled_from(["\ud800", "a\udfffb", "\x00", "goblin-market", "pass", "bid", "x" * 5000]),
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(FIELDS) | TEXT, inner, max_size=4)
    ),
    max_leaves=12,
)


def deep(depth: int, inner) -> object:
    for _ in range(depth):
        inner = [inner]
    return inner


BODIES = st.one_of(
    VALUES,
    st.dictionaries(st.sampled_from(FIELDS), VALUES, min_size=1, max_size=5),
    st.builds(deep, st.integers(20, 200), VALUES),
    st.builds(json.dumps, VALUES).map(lambda t: t[: len(t) // 2] + "\x00"),  # not JSON
)


def encode(body) -> bytes:
    if isinstance(body, str) and body.endswith("\x00"):
        return body.encode("utf-8", "surrogatepass")
    return json.dumps(body).encode()  # ASCII: a lone surrogate travels as \udXXX


def request_schema(rule: str) -> dict | None:
    path = "/v1" + rule.removeprefix("/v1").replace("<game_id>", "{id}")
    path = path.replace("<league_id>", "{id}")
    body = spec()["paths"].get(path, {}).get("post", {}).get("requestBody")
    return body["content"]["application/json"]["schema"] if body else None


def accepts(schema: dict | None, body) -> bool:
    if schema is None:
        return True  # the route reads no body
    if isinstance(body, str) and body.endswith("\x00"):
        return False
    if any(isinstance(x, float) and not math.isfinite(x) for x in _leaves(body)):
        return False
    return Draft202012Validator({**schema, "components": spec()["components"]}).is_valid(body)


def _leaves(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


@pytest.fixture
def world(client, app):
    """Ids and tokens that let every write route reach its body: a started game, a league
    with a member, its operator."""
    op = operator(client, app)
    players = new_players(client, 3)
    gid = new_game(client, players)
    lid = client.post("/v1/leagues", json=league_body(), headers=bearer(op)).get_json()["id"]
    assert client.post(f"/v1/leagues/{lid}/join", headers=bearer(players[1])).status_code == 200
    tokens = {
        "api.create_player": None,
        "leagues.create_league": op,
        "leagues.add_league_member": op,
        "leagues.join_league": players[1],  # a member already: 409 whatever the body
    }
    return {"game_id": gid, "league_id": lid}, tokens, players[0]


def write_routes():
    app = create_app({**TEST_CONFIG, "REDIS_URL": "redis://127.0.0.1:1"})
    for rule in app.url_map.iter_rules():
        writes = sorted(rule.methods & {"POST", "PUT", "PATCH", "DELETE"})
        if writes and rule.endpoint != "api.verify_bundle":  # verify: test_verify_fuzz.py
            method = writes[0]
            yield pytest.param(rule.endpoint, method, rule, id=rule.endpoint)


@pytest.mark.parametrize("endpoint,method,rule", list(write_routes()))
def test_arbitrary_json_to_a_write_route_is_a_clean_4xx_and_writes_nothing(
    client, r, world, endpoint, method, rule
):
    ids, tokens, default = world
    url = path_of(rule, ids)
    who = tokens.get(endpoint, default)
    headers = bearer(who) if who else {}
    schema = request_schema(rule.rule)
    answers: dict[int, int] = {}

    @FUZZ
    @given(BODIES)
    def run(body):
        before = stored(r)
        res = client.open(
            url, method=method, data=encode(body), content_type="application/json", headers=headers
        )
        answers[res.status_code] = answers.get(res.status_code, 0) + 1
        assert res.status_code < 500, (res.status_code, res.get_data(as_text=True)[:500])
        if res.status_code < 400:
            assert accepts(schema, body), (res.status_code, body)
            return
        assert res.mimetype == "application/problem+json", res.get_data(as_text=True)[:300]
        problem = res.get_json()
        errors = problem.get("errors", {})
        assert all(
            isinstance(k, str) and isinstance(v, list) and all(isinstance(m, str) for m in v)
            for k, v in errors.items()
        ), errors
        assert stored(r) == before, (res.status_code, problem)

    run()
    # a route that reads a body refuses some of these; one that reads none (e.g. resign,
    # idempotent per seat) may accept them all, writing once
    assert schema is None or any(400 <= status < 500 for status in answers), answers

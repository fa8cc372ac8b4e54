"""Fuzzing `POST /v1/verify` with real exported bundles of every ruleset, spoiled: any
node's type changed, keys dropped or added, events cut, swapped or repeated, deep
nesting planted, the text truncated; half of them with the hash chain forged again so
that the rules must decide the spoiled commands. The only answers allowed are a 200
report and a 422 problem naming a path: never a 500.

Hypothesis runs with a fixed seed (`derandomize=True`) and a bounded number of examples
per ruleset (docs/reliability.md, "What is fuzzed")."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import games
from events import bundle, codec
from tests.events.bundles import real_bundle
from tests.fuzzing import FUZZ

LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    st.text(max_size=8),
    st.sampled_from(["all", "system", "act", "expire", "game.Created", "game.Ended", "0" * 64]),
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def nodes(value, path=()):
    """Yield the path of every node below `value` (not `value` itself)."""
    children = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, child in children:
        yield (*path, key)
        yield from nodes(child, (*path, key))


def parent_of(root, path):
    for step in path[:-1]:
        root = root[step]
    return root


def forge(bundle) -> None:
    """Seal the chain again over whatever the events now are, as a careful forger."""
    events = bundle.get("events") if isinstance(bundle, dict) else None
    if not isinstance(events, list):
        return
    prev = codec.GENESIS
    for env in events:
        if isinstance(env, dict):
            env["prev"] = prev
            env["hash"] = prev = codec.chain_hash(env)


def nested(depth: int):
    value: object = 1
    for i in range(depth):
        value = [value] if i % 2 else {"a": value}
    return value


@st.composite
def spoiled(draw, bundle):
    """Return the JSON text of a spoiled copy of `bundle`."""
    kind = draw(st.sampled_from(["type", "drop", "add", "events", "nest", "truncate"]))
    if kind == "truncate":
        text = json.dumps(bundle)
        return text[: draw(st.integers(0, len(text) - 1))]
    if kind == "events":
        events, n = bundle["events"], len(bundle["events"])
        i, j = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        how = draw(st.sampled_from(["cut", "swap", "repeat", "drop"]))
        if how == "cut":
            bundle["events"] = events[: max(i, j)]
        elif how == "swap":
            events[i], events[j] = events[j], events[i]
        elif how == "repeat":
            events.insert(j, json.loads(json.dumps(events[i])))
        else:
            del events[i]
    else:
        paths = list(nodes(bundle))
        path = paths[draw(st.integers(0, len(paths) - 1))]
        parent, key = parent_of(bundle, path), path[-1]
        if kind == "type":
            parent[key] = draw(VALUES)
        elif kind == "nest":
            parent[key] = nested(draw(st.integers(1, 40)))
        elif kind == "drop":
            del parent[key]
        elif isinstance(parent[key], dict):
            parent[key][draw(st.text(max_size=6))] = draw(VALUES)
        else:
            parent[key] = [parent[key], draw(VALUES)]
    if draw(st.booleans()):
        forge(bundle)
    return json.dumps(bundle)


@pytest.mark.slow  # plays a whole game of each ruleset first
@pytest.mark.parametrize("ruleset", sorted(games.REGISTRY))
def test_verify_answers_a_report_or_a_named_422_for_any_spoiled_bundle(client, app, ruleset):
    original = real_bundle(client, app, ruleset)
    bundle.check(original)  # a real export fits the published schema, and verifies
    assert client.post("/v1/verify", json=original).get_json()["ok"]
    seen = {200: 0, 422: 0}

    @FUZZ
    @given(st.data())
    def run(data):
        text = data.draw(spoiled(json.loads(json.dumps(original))))
        res = client.post("/v1/verify", data=text, content_type="application/json")
        assert res.status_code in (200, 422), (res.status_code, res.get_json(), text[:300])
        body = res.get_json()
        if res.status_code == 422:
            assert res.mimetype == "application/problem+json"
            assert body["code"] == "invalid_body" and len(body["errors"]) == 1, body
        else:
            assert set(body) == {"game", "events", "ok", "signed_by", "checks"}
        seen[res.status_code] += 1

    run()
    assert seen[200] and seen[422], seen  # both kinds of answer were reached

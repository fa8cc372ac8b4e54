"""Every route in the app, hostile input: missing, malformed, unknown, revoked and other
players' tokens; acting for another seat; oversized and deeply nested bodies; odd ids.

Which routes need a token comes from openapi.yaml (an operation's `security`); a route
the spec does not list is probed: if it refuses a call without a token, it must refuse
every bad token too."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest
import requests

from events import keys
from service.players import hash_token
from tests.api.helpers import bearer, by_seat, new_game, new_players, path_of, random_action
from tests.api.openapi_check import spec as openapi_spec

ROOT = Path(__file__).resolve().parents[2]
ASSETS = {"static", "swagger_ui.show"}  # files: no token, no ids, no bodies
QUERY = {"api.state_at": "?at=1"}
BODY_ROUTES = {"api.create_player", "api.create_game", "api.post_action", "api.verify_bundle"}
MALFORMED = [
    "Bearer",
    "Bearer ",
    "Basic dXNlcjpwYXNz",
    "Token abc",
    "bearer",
    "Bearer a b",
    "Bearer " + "x" * 5000,
    "Bearer\tabc",
]
ODD_IDS = ["a" * 65, "a" * 10_000, "g x", "g:x", "{g:x}", "g*", "g?x", "g..x", "ü", "g\x00x"]
ODD_IDS += ["g/x", "g%2Fx", "'; DROP", "g\nx", "<script>"]


def security() -> dict[str, str]:
    """Return operationId -> 'required' | 'optional' | 'none', from openapi.yaml."""
    spec = openapi_spec()  # parsed once per process
    out = {}
    for ops in spec["paths"].values():
        for method, op in ops.items():
            if isinstance(op, dict) and "operationId" in op:
                needs = op.get("security", spec.get("security", []))
                schemes = [n for n in needs if n]  # [{}] alone: no token read at all
                out[op["operationId"]] = (
                    "none" if not schemes else "optional" if {} in needs else "required"
                )
    return out


def routes(app):
    """Yield (endpoint, method, rule) for every route and method of the app."""
    for rule in app.url_map.iter_rules():
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            yield rule.endpoint, method, rule


def call(client, method: str, url: str, headers=None, **kw):
    res = client.open(url, method=method, headers=headers or {}, **kw)
    res.close()  # never read an event stream to its end
    return res


def expect_problem(res, status: int, code: str | None = None) -> None:
    assert res.status_code == status, (res.status_code, res.get_data(as_text=True)[:300])
    assert res.headers["Content-Type"] == "application/problem+json"
    if code:
        assert res.get_json()["code"] == code


@pytest.fixture
def table(client, r):
    """A started 3-seat game, a stranger, and a player whose token was revoked."""
    players = new_players(client, 3)
    gid = new_game(client, players)
    (stranger, revoked) = new_players(client, 2, "x")
    r.delete(keys.token(hash_token(revoked["token"])))
    return {
        "gid": gid,
        "seats": by_seat(client, gid, players),
        "stranger": stranger,
        "revoked": revoked,
    }


def classify(app, client, table) -> list[tuple[str, str, object, str]]:
    """Return (endpoint, method, rule, 'required'|'optional'|'none') for every route."""
    spec, out = security(), []
    for endpoint, method, rule in routes(app):
        kind = spec.get(endpoint.split(".")[-1])
        if endpoint in ASSETS:
            kind = "none"
        elif kind is None:  # not in the spec: see whether it refuses an anonymous call
            url = path_of(rule, {"game_id": table["gid"]}) + QUERY.get(endpoint, "")
            kind = "required" if call(client, method, url, json={}).status_code == 401 else "?"
        out.append((endpoint, method, rule, kind))
    return out


def test_every_bad_token_is_refused_where_a_token_is_required(app, client, table):
    checked = 0
    for endpoint, method, rule, kind in classify(app, client, table):
        url = path_of(rule, {"game_id": table["gid"]}) + QUERY.get(endpoint, "")
        revoked = {"Authorization": f"Bearer {table['revoked']['token']}"}
        unknown = {"Authorization": "Bearer " + "A" * 43}
        bad = [{"Authorization": h} for h in MALFORMED] + [unknown, revoked]
        if kind == "required":
            expect_problem(call(client, method, url, json={}), 401, "unauthorized")
        # an optional token on a made-up resource (e.g. a league id) may meet a 404 first
        made_up = kind == "optional" and set(rule.arguments) - {"game_id"}
        if kind in ("required", "optional"):
            for headers in bad:
                res = call(client, method, url, headers, json={})
                if made_up and res.status_code == 404:
                    expect_problem(res, 404)
                    continue
                expect_problem(res, 401, "unauthorized")
                assert res.headers["WWW-Authenticate"].startswith("Bearer")
            checked += 1
    assert checked >= 9  # every game route that reads a token was exercised


def test_other_players_tokens_hold_no_seat(app, client, table):
    gid, stranger = table["gid"], bearer(table["stranger"])
    for path in ("legal", "export"):
        expect_problem(client.get(f"/v1/games/{gid}/{path}", headers=stranger), 403, "not_seated")
    seat = client.get(f"/v1/games/{gid}").get_json()["owed"][0]["seat"]
    res = client.post(f"/v1/games/{gid}/actions", json={"type": "pass"}, headers=stranger)
    expect_problem(res, 403, "not_seated")
    for path in ("", "/events", "/state?at=5"):  # a stranger sees what a spectator sees
        mine = client.get(f"/v1/games/{gid}{path}", headers=stranger).get_json()
        assert mine == client.get(f"/v1/games/{gid}{path}").get_json()
    seated = client.get(f"/v1/games/{gid}", headers=bearer(table["seats"][seat])).get_json()
    assert seated["you"] == seat


def test_a_seat_never_acts_for_another(client, r):
    players = new_players(client, 3)
    gid = new_game(client, players)
    seats = by_seat(client, gid, players)
    owed = client.get(f"/v1/games/{gid}").get_json()["owed"][0]["seat"]
    legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(seats[owed])).get_json()
    size = r.xlen(keys.game_events(gid))
    for other in set(seats) - {owed}:
        for spec in legal["actions"]:
            for action in spec["choices"][:3]:
                for body in (
                    action,
                    {**action, "seat": owed},
                    {**action, "player": seats[owed]["id"]},
                ):
                    res = client.post(
                        f"/v1/games/{gid}/actions", json=body, headers=bearer(seats[other])
                    )
                    assert res.status_code in (409, 422), res.get_json()
    assert r.xlen(keys.game_events(gid)) == size


def test_an_idempotency_key_is_per_player_so_a_reused_key_never_replays_another_seat(client, r):
    players = new_players(client, 3)
    gid = new_game(client, players, ruleset="black-market")  # opens with secret production
    seats = by_seat(client, gid, players)
    first, second = sorted(seats)[:2]
    h = {"Idempotency-Key": "same-key"}
    mine = {"type": "produce", "goods": ["blue", "blue"]}
    a = client.post(f"/v1/games/{gid}/actions", json=mine, headers={**h, **bearer(seats[first])})
    assert a.status_code == 202, a.get_json()
    b = client.post(
        f"/v1/games/{gid}/actions",
        json={"type": "produce", "goods": []},
        headers={**h, **bearer(seats[second])},
    )
    assert b.status_code == 202, b.get_json()
    theirs = b.get_json()["events"]
    assert [e["actor"] for e in theirs] == [second] and "blue" not in str(theirs)
    assert a.get_json()["version"] < b.get_json()["version"]


def post_routes(app):
    return [(e, rule) for e, m, rule in routes(app) if m == "POST"]


def test_oversized_bodies_are_refused_on_every_post_route(app, client, table):
    token = bearer(table["seats"][0])
    for endpoint, rule in post_routes(app):
        url = path_of(rule, {"game_id": table["gid"]})
        limit = app.config[
            "MAX_BUNDLE_BYTES" if endpoint == "api.verify_bundle" else "MAX_BODY_BYTES"
        ]
        body = b'{"type":"pass","pad":"' + b"x" * limit + b'"}'
        res = call(client, "POST", url, token, data=body, content_type="application/json")
        expect_problem(res, 413, "body_too_large")


@pytest.mark.parametrize("shape", ["[", '{"a":'])
@pytest.mark.parametrize("depth", [33, 10_000])
def test_deeply_nested_bodies_are_refused_quickly_on_every_post_route(
    app, client, table, shape, depth
):
    token = bearer(table["seats"][0])
    close = "]" if shape == "[" else "}"
    nested = shape * depth + "1" + close * depth
    for endpoint, rule in post_routes(app):
        url = path_of(rule, {"game_id": table["gid"]})
        for body in (nested, '{"type":"bid","amount":' + nested + "}"):
            started = time.monotonic()
            res = call(client, "POST", url, token, data=body, content_type="application/json")
            assert time.monotonic() - started < 5.0, endpoint  # no blow-up, even loaded
            assert res.status_code < 500, (endpoint, res.get_data(as_text=True)[:300])
            if endpoint in BODY_ROUTES:
                expect_problem(res, 422, "invalid_body")


def test_a_body_nested_within_the_limit_reaches_the_rules(client, table):
    seat = client.get(f"/v1/games/{table['gid']}").get_json()["owed"][0]["seat"]
    amount = "[" * 31 + "1" + "]" * 31
    res = client.post(
        f"/v1/games/{table['gid']}/actions",
        headers=bearer(table["seats"][seat]),
        data='{"type":"bid","amount":' + amount + "}",
        content_type="application/json",
    )
    expect_problem(res, 422, "invalid_action")


def test_odd_ids_in_paths_are_404_problems_on_every_route(app, client, table):
    token = bearer(table["seats"][0])
    checked = 0
    for endpoint, method, rule in routes(app):
        # string variables only: <name> or <string:name> (ints and paths are not ids)
        names = re.findall(r"<(?:string(?:\([^)]*\))?:)?(\w+)>", rule.rule)
        if endpoint in ASSETS or not names:
            continue
        plain = call(client, method, path_of(rule, {}) + QUERY.get(endpoint, ""), token, json={})
        # a caller refused whatever the id (e.g. not an operator) may be refused that way
        allowed = {404, plain.status_code} if plain.status_code in (401, 403) else {404}
        for odd in ODD_IDS:
            url = path_of(rule, {n: odd for n in names}) + QUERY.get(endpoint, "")
            res = call(client, method, url, token, json={})
            assert res.status_code in allowed, (endpoint, odd[:20], res.status_code)
            expect_problem(res, res.status_code)
            checked += 1
    assert checked >= 10 * len(ODD_IDS)


def test_hostile_bodies_over_real_http_get_clean_answers(live_server):
    player = requests.post(f"{live_server}/v1/players", json={"name": "h"}, timeout=5).json()
    token = {"Authorization": f"Bearer {player['token']}", "Content-Type": "application/json"}
    url = f"{live_server}/v1/games"
    deep = requests.post(url, data="[" * 10_000 + "]" * 10_000, headers=token, timeout=5)
    assert deep.status_code == 422 and deep.json()["code"] == "invalid_body"

    def chunks():  # no Content-Length: the limit applies while reading
        for _ in range(100):
            yield b"x" * 1024

    big = requests.post(url, data=chunks(), headers=token, timeout=5)
    assert big.status_code == 413 and big.json()["code"] == "body_too_large"
    odd = requests.get(f"{live_server}/v1/games/{'a' * 3000}", timeout=5)
    assert odd.status_code == 404 and odd.json()["code"] == "game_not_found"


def test_a_random_action_from_legal_is_accepted_for_the_seat_that_owes(client, table):
    """The positive control for the refusals above: the same calls succeed when allowed."""
    gid = table["gid"]
    seat = client.get(f"/v1/games/{gid}").get_json()["owed"][0]["seat"]
    legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(table["seats"][seat]))
    action = random_action(random.Random(1), legal.get_json()["actions"])
    res = client.post(f"/v1/games/{gid}/actions", json=action, headers=bearer(table["seats"][seat]))
    assert res.status_code == 201 and res.get_json()["events"][0]["actor"] == seat

"""openapi.yaml is a valid OpenAPI 3.1 document, names every route, and describes every answer."""

from __future__ import annotations

import hashlib
import importlib
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

import games
from games.base import InvalidAction
from games.rng import Rng
from service import create_app, usecases
from service.embedded import free_port
from tests.games.playout import Playout, apply
from tests.games.playout import random_action as random_legal_action
from tests.service.helpers import random_action
from tests.service.openapi_check import (
    METHODS,
    CheckedClient,
    assert_matches,
    check_response,
    documented_codes,
    error_table,
    expect,
    matches,
    spec,
    sse_frames,
)

ROOT = Path(__file__).resolve().parents[2]
PATH_NAMES = {"game_id": "id"}  # Flask's variable names -> the spec's parameter names
UNROUTED = {"not_found", "method_not_allowed"}  # codes for URLs and methods the spec lacks
# Endpoints that serve files rather than the API: static assets, Swagger UI's page of this spec.
UNDOCUMENTED = {"static", "swagger_ui"}

PLAYERS, RULESETS, GAMES = "/v1/players", "/v1/rulesets", "/v1/games"
GAME, JOIN, LEGAL = "/v1/games/{id}", "/v1/games/{id}/join", "/v1/games/{id}/legal"
ACTIONS, EVENTS = "/v1/games/{id}/actions", "/v1/games/{id}/events"
STREAM, EXPORT, STATE = (
    "/v1/games/{id}/events/stream",
    "/v1/games/{id}/export",
    "/v1/games/{id}/state",
)
VERIFY, REPLAY = "/v1/verify", "/games/{id}/replay"
NOT_LIMITED = {"/healthz", "/openapi.yaml"}  # every other route counts against a rate limit
RATE_HEADERS = {"RateLimit-Policy", "RateLimit"}
FAST = {"RATE_LIMIT_ANON": "100000/minute", "RATE_LIMIT_TOKEN": "100000/minute"}


def component(ruleset: str, kind: str) -> str:
    """Return the name of a ruleset's components schema: ("black-market", "Action") ->
    "BlackMarketAction"."""
    return "".join(part.capitalize() for part in ruleset.split("-")) + kind


def action_types(name: str) -> list[str]:
    """Return the `type` consts of an action component's oneOf, in order."""
    return [
        branch["properties"]["type"]["const"]
        for branch in spec()["components"]["schemas"][name]["oneOf"]
    ]


def parser(ruleset: str) -> Any:
    """Return the ruleset's own module of action shapes (SHAPES and parse)."""
    return importlib.import_module(f"games.{ruleset.replace('-', '_')}.actions")


def as_json(value: Any) -> Any:
    """Return `value` as a client receives it (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value))


@pytest.fixture
def api(client) -> CheckedClient:
    return CheckedClient(client)


def register(api: CheckedClient, n: int) -> list[dict[str, Any]]:
    return [expect(api.post(PLAYERS, json={"name": f"ana{i}"}), 201) for i in range(n)]


def new_game(api: CheckedClient, creator: dict[str, Any], **body: Any) -> dict[str, Any]:
    body = {"ruleset": "goblin-market", "players": 3, **body}
    return expect(api.post(GAMES, token=creator["token"], json=body), 201)


def seated_game(api: CheckedClient) -> tuple[str, dict[int, str]]:
    """Create a 3-player Goblin Market game, seat three players; return id and seat → token."""
    players = register(api, 3)
    gid = new_game(api, players[0])["id"]
    seats = {}
    for p in players:
        seats[expect(api.post(JOIN, gid, p["token"]), 200)["seat"]] = p["token"]
    return gid, seats


def owing(api: CheckedClient, gid: str) -> int:
    return expect(api.get(GAME, gid), 200)["owed"][0]["seat"]


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
        for branch in schemas[action]["oneOf"]:
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
            assert responses["429"] == {"$ref": "#/components/responses/RateLimited"}, path
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


# --- the app's answers ---------------------------------------------------------------------


def test_registering_listing_and_creating_match_the_spec(api):
    ana, bo, cy = register(api, 3)
    rulesets = expect(api.get(RULESETS), 200)["rulesets"]
    gm = next(r for r in rulesets if r["id"] == "goblin-market")
    assert gm["min_players"] <= 3 <= gm["max_players"]
    es = expect(api.get(RULESETS, headers={"Accept-Language": "es-ES,es;q=0.9"}), 200)
    assert next(r for r in es["rulesets"] if r["id"] == "goblin-market")["name"] != gm["name"]

    resp = api.post(
        GAMES,
        token=ana["token"],
        json={
            "ruleset": "goblin-market",
            "players": 3,
            "options": {"edition": "es", "courts": False},
            "decision_timeout_s": 300,
        },
    )
    game = expect(resp, 201)
    assert resp.headers["ETag"] == f'"{game["version"]}"'
    assert (game["status"], game["you"], game["view"], game["result"]) == (
        "waiting",
        None,
        None,
        None,
    )
    assert game["options"] == {"edition": "es", "courts": False}

    joins = [expect(api.post(JOIN, game["id"], p["token"]), 200) for p in (ana, bo, cy)]
    assert [j["status"] for j in joins] == ["waiting", "waiting", "active"]
    started = expect(api.get(GAME, game["id"], ana["token"]), 200)
    assert started["you"] == joins[0]["seat"] and isinstance(started["view"], dict)
    assert started["owed"] and all(o["deadline"] for o in started["owed"])

    assert {r["id"] for r in rulesets} == set(games.REGISTRY)
    for ruleset in rulesets:
        Draft202012Validator.check_schema(ruleset["options"])
    media = spec()["paths"][GAMES]["post"]["requestBody"]["content"]["application/json"]
    assert set(media["examples"]) == set(games.REGISTRY)
    for name, example in media["examples"].items():
        created = expect(api.post(GAMES, token=ana["token"], json=example["value"]), 201)
        assert (created["ruleset"], created["players"]) == (name, example["value"]["players"])
        assert created["options"].items() >= example["value"]["options"].items()


def test_reading_a_started_game_matches_the_spec_and_hides_what_it_should(api):
    gid, seats = seated_game(api)
    resp = api.get(GAME, gid)
    game = expect(resp, 200)
    assert resp.headers["ETag"] == f'"{game["version"]}"' and game["you"] is None
    assert RATE_HEADERS <= set(resp.headers.keys())
    etag = resp.headers["ETag"]
    for tag in (etag, f"W/{etag}", "*"):
        unchanged = api.get(GAME, gid, headers={"If-None-Match": tag})
        assert unchanged.status_code == 304 and unchanged.headers["ETag"] == etag
    assert api.get(GAME, gid, headers={"If-None-Match": '"1"'}).status_code == 200
    assert game["status"] == "active" and sorted(game["order"]) == [0, 1, 2]
    for seat, token in seats.items():
        assert expect(api.get(GAME, gid, token), 200)["you"] == seat
        legal = expect(api.get(LEGAL, gid, token), 200)
        assert legal["version"] == game["version"]
        assert bool(legal["actions"]) == (seat == game["owed"][0]["seat"])

    for token in (None, seats[0]):
        events = expect(api.get(EVENTS, gid, token), 200)
        assert events["version"] == game["version"] == events["events"][-1]["seq"]
        hidden = [e for e in events["events"] if e["visible_to"] != "all"]
        assert hidden and all(e["redacted"] and "salt" not in e for e in hidden)
    tail = expect(api.get(EVENTS, gid, query_string={"after": game["version"] - 1}), 200)
    assert [e["seq"] for e in tail["events"]] == [game["version"]]


def test_an_action_with_if_match_and_idempotency_key_matches_the_spec(api):
    gid, seats = seated_game(api)
    seat = owing(api, gid)
    etag = api.get(GAME, gid).headers["ETag"]
    headers = {"If-Match": etag, "Idempotency-Key": "bid-1"}
    first = expect(
        api.post(ACTIONS, gid, seats[seat], json={"type": "bid", "amount": 1}, headers=headers), 201
    )
    assert first["events"][0]["actor"] == seat
    assert first["events"][0]["seq"] == int(etag.strip('"')) + 1

    again = expect(
        api.post(ACTIONS, gid, seats[seat], json={"amount": 1, "type": "bid"}, headers=headers), 201
    )
    assert again["events"] == first["events"]
    expect(
        api.post(ACTIONS, gid, seats[seat], json={"type": "pass"}, headers=headers),
        422,
        "idempotency_key_reused",
    )
    nxt = owing(api, gid)
    expect(
        api.post(
            ACTIONS,
            gid,
            seats[nxt],
            json={"type": "pass"},
            headers={"If-Match": etag, "Idempotency-Key": "late"},
        ),
        412,
        "version_mismatch",
    )
    assert expect(api.get(GAME, gid), 200)["version"] == first["version"]


def test_error_answers_match_the_spec(api):
    ana, bo, cy, dee = register(api, 4)
    waiting = new_game(api, ana)["id"]
    expect(api.post(JOIN, waiting, ana["token"]), 200)

    expect(api.post(GAMES, json={"ruleset": "goblin-market", "players": 3}), 401, "unauthorized")
    expect(api.get(GAME, waiting, "forged"), 401, "unauthorized")
    expect(api.get(LEGAL, waiting, headers={"Authorization": "Basic abc"}), 401, "unauthorized")

    for method, template in [("GET", GAME), ("GET", LEGAL), ("GET", EVENTS), ("POST", JOIN)]:
        expect(api.call(method, template, "g_nope", ana["token"]), 404, "game_not_found")
    expect(api.get(GAME, "x" * 65), 404, "game_not_found")
    for template in (STREAM, EXPORT, REPLAY):
        expect(api.get(template, "g_nope"), 404, "game_not_found")
    expect(api.get(REPLAY, "bad.id"), 404, "game_not_found")
    expect(api.get(STATE, "g_nope", query_string={"at": 1}), 404, "game_not_found")
    expect(api.get(EXPORT, waiting), 401, "unauthorized")
    expect(api.get(EXPORT, waiting, bo["token"]), 403, "not_seated")
    assert expect(api.get(EXPORT, waiting, ana["token"]), 200)["seed"] is None
    for at in ("0", "x", "99"):
        expect(api.get(STATE, waiting, query_string={"at": at}), 422, "invalid_query")
    expect(api.get(STATE, waiting), 422, "invalid_query")
    for headers, query in [({"Last-Event-ID": "x"}, {}), ({}, {"after": "-1"})]:
        body = expect(
            api.get(STREAM, waiting, headers=headers, query_string=query), 422, "invalid_header"
        )
        assert "Last-Event-ID" in body["errors"]
    expect(api.post(VERIFY, json=["not", "a", "bundle"]), 422, "invalid_body")
    report = expect(api.post(VERIFY, json={"format": "nonsense"}), 200)
    assert report["ok"] is False
    expect(api.post(ACTIONS, "g_nope", ana["token"], json={"type": "pass"}), 404, "game_not_found")

    for bad in (
        {"ruleset": "goblin-market", "players": "3"},
        {"ruleset": "goblin-market"},
        {"ruleset": "goblin-market", "players": 3, "colour": "red"},
        ["goblin-market"],
    ):
        body = expect(api.post(GAMES, token=ana["token"], json=bad), 422, "invalid_body")
        assert body["errors"]
    expect(api.post(PLAYERS, data="{name", content_type="application/json"), 422, "invalid_body")
    expect(api.post(PLAYERS, data='{"name": "x"}', content_type="text/plain"), 422, "invalid_body")
    expect(
        api.post(GAMES, token=ana["token"], json={"ruleset": "chess", "players": 3}),
        422,
        "unknown_ruleset",
    )
    expect(
        api.post(GAMES, token=ana["token"], json={"ruleset": "goblin-market", "players": 2}),
        422,
        "invalid_players",
    )
    body = expect(
        api.post(
            GAMES,
            token=ana["token"],
            json={"ruleset": "goblin-market", "players": 3, "options": {"colour": "red"}},
        ),
        422,
        "invalid_option",
    )
    assert "options.colour" in body["errors"]
    expect(
        api.post(PLAYERS, data="x" * (65 * 1024), content_type="application/json"),
        413,
        "body_too_large",
    )

    expect(api.post(JOIN, waiting, ana["token"]), 409, "already_seated")
    expect(api.post(ACTIONS, waiting, ana["token"], json={"type": "pass"}), 409, "game_not_started")
    expect(api.get(LEGAL, waiting, bo["token"]), 403, "not_seated")

    gid, seats = seated_game(api)
    expect(api.post(JOIN, gid, dee["token"]), 409, "game_not_waiting")
    expect(api.post(ACTIONS, gid, dee["token"], json={"type": "pass"}), 403, "not_seated")
    expect(api.get(EVENTS, gid, query_string={"after": "-1"}), 422, "invalid_query")
    seat = owing(api, gid)
    other = next(s for s in seats if s != seat)
    act = (ACTIONS, gid, seats[seat])
    expect(api.post(ACTIONS, gid, seats[other], json={"type": "pass"}), 409, "not_your_turn")
    expect(api.post(*act, json={"type": "take_all"}), 409, "action_not_allowed")
    expect(api.post(*act, json={"type": "bid", "amount": 0}), 409, "bid_too_low")
    expect(api.post(*act, json={"type": "bid", "amount": 1000}), 409, "insufficient_coins")
    expect(api.post(*act, json={"type": "bid", "amount": "3"}), 422, "invalid_action")
    expect(api.post(*act, json={"type": "dance"}), 422, "invalid_action")
    expect(api.post(*act, json={"amount": 3}), 422, "invalid_body")
    expect(
        api.post(*act, json={"type": "pass"}, headers={"If-Match": "soon"}), 422, "invalid_header"
    )
    expect(
        api.post(*act, json={"type": "pass"}, headers={"Idempotency-Key": "a b"}),
        422,
        "invalid_header",
    )


def test_an_unreachable_store_is_a_503_with_retry_after():
    url = f"redis://127.0.0.1:{free_port()}/0"
    api = CheckedClient(create_app({"REDIS_URL": url, "RQ_REDIS_URL": url}).test_client())
    resp = api.get("/healthz")
    expect(resp, 503, "store_unavailable")
    assert int(resp.headers["Retry-After"]) >= 0
    expect(api.post(PLAYERS, json={"name": "ana"}), 503, "store_unavailable")
    expect(api.get(RULESETS), 200)


def test_the_service_routes_match_the_spec(api):
    resp = api.get("/openapi.yaml")
    assert resp.status_code == 200 and yaml.safe_load(resp.get_data(as_text=True)) == spec()
    assert expect(api.get("/healthz"), 200) == {"status": "ok"}


def chain_hash(envelope: dict[str, Any]) -> str:
    """Hash an envelope the way the Event schema's description says."""
    body = {k: v for k, v in envelope.items() if k != "hash"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256((envelope["prev"] + text).encode("utf-8")).hexdigest()


def test_a_game_played_to_the_end_matches_the_spec_and_opens_every_event(api, redis_url):
    gid, seats = seated_game(api)
    rnd = random.Random(7)
    for _ in range(2000):
        game = expect(api.get(GAME, gid), 200)
        if game["status"] != "active":
            break
        token = seats[game["owed"][0]["seat"]]
        actions = expect(api.get(LEGAL, gid, token), 200)["actions"]
        for choice in (c for a in actions for c in a["choices"] or []):
            assert_matches("GoblinMarketAction", choice)
        action = random_action(rnd, actions)
        assert_matches("GoblinMarketAction", action)
        expect(api.post(ACTIONS, gid, token, json=action), 201)
    assert game["status"] == "finished"
    assert_matches("Result", game["result"])
    assert set(game["result"]["winners"]) <= set(seats)

    events = expect(api.get(EVENTS, gid), 200)["events"]
    assert not any(e.get("redacted") for e in events)
    assert all("salt" in e for e in events if e["visible_to"] != "all")
    prev = "0" * 64
    for e in events:
        assert e["prev"] == prev and e["hash"] == chain_hash(e)
        prev = e["hash"]
    created, ended = events[0], events[-1]
    assert (created["type"], ended["type"]) == ("game.Created", "game.Ended")
    seed = bytes.fromhex(ended["data"]["seed"])
    assert hashlib.sha256(seed).hexdigest() == created["data"]["seed_commitment"]

    token = next(iter(seats.values()))
    assert expect(api.get(LEGAL, gid, token), 200)["actions"] == []
    expect(api.post(ACTIONS, gid, token, json={"type": "pass"}), 409, "game_over")

    # the live stream replays the whole game and ends after game.Ended (SSE_MAX_S: no hang)
    config = {"REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url, "SSE_MAX_S": 5, **FAST}
    watcher = CheckedClient(create_app(config).test_client())
    for who in (None, token):
        resp = watcher.get(STREAM, gid, who)
        assert resp.mimetype == "text/event-stream" and resp.headers["Cache-Control"] == "no-cache"
        frames = sse_frames(resp.get_data(as_text=True))
        assert frames[0] == {"retry": "1000"}
        sent = [f for f in frames if "data" in f]
        assert [(f["id"], f["event"]) for f in sent] == [(str(e["seq"]), e["type"]) for e in events]
        assert [json.loads(f["data"]) for f in sent] == events
    for resume in (
        {"headers": {"Last-Event-ID": str(ended["seq"] - 1)}},
        {"query_string": {"after": ended["seq"] - 2}},
    ):
        frames = sse_frames(watcher.get(STREAM, gid, **resume).get_data(as_text=True))
        assert [int(f["id"]) for f in frames if "id" in f][-1] == ended["seq"]
        assert frames[-1]["event"] == "game.Ended"
    for frame in sent:
        assert_matches("Event", json.loads(frame["data"]))

    # the audit routes: export to anyone, verify it, fold any point, replay it in a browser
    bundle = expect(api.get(EXPORT, gid), 200)
    assert bundle["events"] == events and bundle["seed"] == ended["data"]["seed"]
    report = expect(api.post(VERIFY, json=bundle), 200)
    assert report["ok"] and report["events"] == len(events)
    middle = expect(api.get(STATE, gid, token, query_string={"at": ended["seq"] // 2}), 200)
    assert middle["version"] == ended["seq"] // 2 and len(middle["views"]) == len(seats)
    for view in middle["views"]:
        assert_matches("GoblinMarketView", view)
    page = api.get(REPLAY, gid)
    assert page.status_code == 200 and "<html" in page.get_data(as_text=True).lower()


def test_a_caller_over_its_rate_limit_gets_the_429_the_spec_describes(redis_url):
    config = {"REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url, "RATE_LIMIT_ANON": "3/minute"}
    api = CheckedClient(create_app(config).test_client())
    first = api.get(RULESETS)
    expect(first, 200)
    assert first.headers["RateLimit-Policy"] == '"default";q=3;w=60'
    assert re.fullmatch(r'"default";r=2;t=\d+', first.headers["RateLimit"])
    expect(api.get(GAME, "g_nope"), 404, "game_not_found")  # errors count too
    expect(api.get(EVENTS, "g_nope"), 404, "game_not_found")
    for path in (RULESETS, GAME, STREAM, REPLAY):  # one budget across routes, the page too
        refused = api.get(path, "g_nope")
        expect(refused, 429, "rate_limited")
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        assert re.fullmatch(r'"default";r=0;t=\d+', refused.headers["RateLimit"])
    expect(api.get("/healthz"), 200)  # not counted
    assert "RateLimit" not in api.get("/openapi.yaml").headers


# --- every ruleset's legal actions and views fit its schemas ---------------------------------

PLAYOUTS = [  # ruleset, players, options, seed
    ("goblin-market", 3, {}, 1),
    ("goblin-market", 6, {"courts": False, "edition": "es"}, 2),
    ("sorcerous-futures", 3, {}, 3),
    ("sorcerous-futures", 4, {}, 4),
    ("sorcerous-futures", 4, {"sly_excuse": True}, 5),
    ("black-market", 3, {}, 6),
    ("black-market", 5, {}, 7),
    ("black-market", 4, {"trade": "wild"}, 8),
    ("black-market", 6, {"trade": "wild"}, 9),
    ("gobcon", 2, {}, 10),
    ("gobcon", 3, {}, 11),
    ("gobcon", 4, {"end_on_empty_deck": True, "goal": 30}, 15),
    ("gobcon", 6, {"time_limit": 6}, 24),
]
MAX_DECISIONS = 800
VIEW_EVERY = 25


def schema_value(schema: dict[str, Any], rnd: random.Random) -> Any:
    """Return a random value of a legal() schema (const, enum, integer, boolean, object)."""
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return rnd.choice(schema["enum"])
    kind = schema.get("type")
    if kind == "integer":
        return rnd.randint(schema["minimum"], schema["maximum"])
    if kind == "boolean":
        return rnd.random() < 0.5
    if kind == "object":
        return {k: schema_value(v, rnd) for k, v in schema.get("properties", {}).items()}
    raise AssertionError(f"legal() published a schema a client cannot fill: {schema}")


def legal_objects(spec_: dict[str, Any], rnd: random.Random) -> Iterator[tuple[Any, dict]]:
    """Yield (key, action object) for what a client may build from one /legal entry: every
    listed choice, a value from the schema, and that value with each field run through its
    whole enum and bounds. Equal keys stand for the same check (a field's value is checked
    once per action type, whatever the other fields hold)."""
    kind = spec_["type"]
    for choice in spec_["choices"] or []:
        yield json.dumps(choice, sort_keys=True), choice
    schema = spec_["schema"]
    base = schema_value(schema, rnd)
    yield json.dumps(base, sort_keys=True), base
    for name, prop in schema.get("properties", {}).items():
        values = list(prop.get("enum", []))
        if prop.get("type") == "integer" and not values:
            values = [prop["minimum"], prop["maximum"]]
        if prop.get("type") == "object":  # e.g. a sale: every member at its bounds
            for key, sub in prop.get("properties", {}).items():
                if sub.get("type") == "integer":
                    values += [
                        {**base[name], key: sub["minimum"]},
                        {**base[name], key: sub["maximum"]},
                    ]
        for value in values:
            yield (kind, name, json.dumps(value, sort_keys=True)), {**base, name: value}


class SpecChecker:
    """Checks one ruleset's legal() specs, deadline defaults and views against the spec,
    each distinct action object once."""

    def __init__(self, ruleset: str, rnd: random.Random):
        self.game, self.rnd = games.get(ruleset), rnd
        self.action, self.view = component(ruleset, "Action"), component(ruleset, "View")
        branches = spec()["components"]["schemas"][self.action]["oneOf"]
        self.fields = {b["properties"]["type"]["const"]: set(b["properties"]) for b in branches}
        self.seen: set[Any] = set()
        self.types: set[str] = set()
        self.kinds: set[str] = set()

    def action_fits(self, action: dict[str, Any], where: str, key: Any = None) -> None:
        key = key or json.dumps(action, sort_keys=True)
        if key not in self.seen:
            self.seen.add(key)
            if not matches(self.action, action):
                assert_matches(self.action, action)  # raises, naming what breaks
                raise AssertionError(f"{where}: {action}")

    def state(self, state: Any, order: tuple[int, ...], views: bool) -> None:
        for owed in self.game.owed(state):
            self.kinds.add(owed.kind)
            self.action_fits(as_json(owed.default), f"default of {owed.kind}")
            for entry in as_json([vars(s) for s in self.game.legal(state, owed.seat)]):
                assert entry["schema"]["properties"].keys() == self.fields[entry["type"]], entry
                self.types.add(entry["type"])
                for key, action in legal_objects(entry, self.rnd):
                    self.action_fits(action, f"legal {entry['type']} for {owed.kind}", key)
        if views:
            for seat in (*order, None):
                view = as_json(self.game.view(state, seat, self.rnd.choice(["en", "es"])))
                if not matches(self.view, view):
                    assert_matches(self.view, view)


def check_playout(ruleset: str, players: int, options: dict[str, Any], seed: int) -> SpecChecker:
    """Play a random game with the driver's functions, checking the spec at every decision."""
    game, pick = games.get(ruleset), random.Random(seed)
    order = tuple(pick.sample(range(players), players))
    rng, checker = Rng(f"openapi-{seed}".encode()), SpecChecker(ruleset, random.Random(seed))
    run = Playout(game, order)
    apply(game, run, game.setup(game.normalize_options(options, players), order, rng))
    checker.state(run.state, order, views=True)
    while not game.is_over(run.state) and run.decisions < MAX_DECISIONS:
        if game.ready(run.state) is not None:  # a complete simultaneous phase, as a worker
            apply(game, run, game.resolve(run.state, rng))
            checker.state(run.state, order, views=False)
            continue
        chosen = pick.choice(game.owed(run.state))
        if chosen.simultaneous and pick.random() < 0.1:
            action = chosen.default
        else:
            action = random_legal_action(game.legal(run.state, chosen.seat), pick)
        apply(game, run, game.decide(run.state, chosen.seat, action, rng))
        run.decisions += 1
        checker.state(run.state, order, views=run.decisions % VIEW_EVERY == 0)
    if game.is_over(run.state):
        checker.state(run.state, order, views=True)
        assert_matches("Result", as_json(game.result(run.state).to_json()))
    return checker


def test_random_playouts_legal_actions_defaults_and_views_fit_each_rulesets_schemas():
    offered: dict[str, set[str]] = {ruleset: set() for ruleset in games.REGISTRY}
    kinds: dict[str, set[str]] = {ruleset: set() for ruleset in games.REGISTRY}
    for ruleset, players, options, seed in PLAYOUTS:
        checker = check_playout(ruleset, players, options, seed)
        offered[ruleset] |= checker.types
        kinds[ruleset] |= checker.kinds
    owed_doc = spec()["components"]["schemas"]["Owed"]["description"]
    for ruleset, owed_kinds in kinds.items():  # Owed lists every decision kind of the ruleset
        section = " ".join(owed_doc.split(f"- `{ruleset}`:")[1].split("\n- `")[0].split())
        assert all(f"`{kind}` (" in section for kind in owed_kinds), (ruleset, owed_kinds)
    for ruleset, types in offered.items():
        documented = set(action_types(component(ruleset, "Action")))
        assert types <= documented
        # if the rules change, pick PLAYOUTS (seeds, options) that reach every action again
        assert documented - types == set(), f"{ruleset}: no playout offered {documented - types}"


# --- every ruleset over HTTP -----------------------------------------------------------------

HTTP_ACTIONS = 100


@pytest.mark.parametrize("ruleset", ["sorcerous-futures", "black-market", "gobcon"])
def test_each_ruleset_plays_over_http_as_the_spec_describes(api, app, ruleset):
    example = spec()["paths"][GAMES]["post"]["requestBody"]["content"]["application/json"]
    body = {**example["examples"][ruleset]["value"], "decision_timeout_s": None}
    people = register(api, body["players"])
    gid = expect(api.post(GAMES, token=people[0]["token"], json=body), 201)["id"]
    seats = {expect(api.post(JOIN, gid, p["token"]), 200)["seat"]: p["token"] for p in people}
    deps, rnd, statuses = app.extensions["marketfold"], random.Random(3), set()
    action_schema, view_schema = component(ruleset, "Action"), component(ruleset, "View")
    for _ in range(HTTP_ACTIONS):
        rec = deps.store.load(gid).record
        if (phase := rec.game.ready(rec.state)) is not None:  # as the worker would
            usecases.resolve(deps, gid, phase)
            continue
        if (public := expect(api.get(GAME, gid), 200))["status"] != "active":
            break
        seat = rnd.choice(public["owed"])["seat"]
        game = expect(api.get(GAME, gid, seats[seat]), 200)
        assert game["you"] == seat
        assert_matches(view_schema, game["view"])
        actions = expect(api.get(LEGAL, gid, seats[seat]), 200)["actions"]
        for choice in (c for a in actions for c in a["choices"] or []):
            assert_matches(action_schema, choice)
        action = random_action(rnd, actions)
        assert_matches(action_schema, action)
        resp = api.post(
            ACTIONS, gid, seats[seat], json=action, headers={"If-Match": str(game["version"])}
        )
        answer = expect(resp, 202 if resp.status_code == 202 else 201)
        assert answer["pending"] == (resp.status_code == 202)
        statuses.add(resp.status_code)
    assert_matches(view_schema, expect(api.get(GAME, gid), 200)["view"])
    # every ruleset has simultaneous phases (202); in wild Black Market even the auction
    # winner's raise is answered 202, as the next phase it opens is simultaneous
    assert 202 in statuses and statuses <= {201, 202}

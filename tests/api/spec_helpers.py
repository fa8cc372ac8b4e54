"""Routes, names and small helpers shared by the OpenAPI contract tests."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

from tests.api.openapi_check import (
    CheckedClient,
    expect,
    spec,
)

ROOT = Path(__file__).resolve().parents[2]
PATH_NAMES = {"game_id": "id"}  # Flask's variable names -> the spec's parameter names
UNROUTED = {  # codes for URLs and methods the spec lacks, and for requests refused by the
    # HTTP server before any route (cli/gunicorn_conf.py)
    "not_found", "method_not_allowed", "bad_request", "request_line_too_long", "headers_too_large",
}  # fmt: skip
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
NOT_LIMITED = {
    "/healthz",
    "/readyz",
    "/metrics",
    "/openapi.yaml",
}  # every other route counts against a rate limit
RATE_HEADERS = {"RateLimit-Policy", "RateLimit"}
FAST = {"RATE_LIMIT_ANON": "100000/minute", "RATE_LIMIT_TOKEN": "100000/minute"}


def component(ruleset: str, kind: str) -> str:
    """Return the name of a ruleset's components schema: ("black-market", "Action") ->
    "BlackMarketAction"."""
    return "".join(part.capitalize() for part in ruleset.split("-")) + kind


def action_branches(name: str) -> list[dict[str, Any]]:
    """Return the schemas of an action component's oneOf (each a named component), in order."""
    schemas = spec()["components"]["schemas"]
    return [
        schemas[branch["$ref"].removeprefix("#/components/schemas/")]
        for branch in schemas[name]["oneOf"]
    ]


def action_types(name: str) -> list[str]:
    """Return the `type` consts of an action component's oneOf, in order."""
    return [branch["properties"]["type"]["const"] for branch in action_branches(name)]


def parser(ruleset: str) -> Any:
    """Return the ruleset's own module of action shapes (SHAPES and parse)."""
    return importlib.import_module(f"games.{ruleset.replace('-', '_')}.actions")


def as_json(value: Any) -> Any:
    """Return `value` as a client receives it (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value))


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

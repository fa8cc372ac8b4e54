"""The HTTP API, version 1. Each view: read the request, call a use case, dump the answer."""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

import games
from events import audit, decide
from events.record import Record, fold_all
from service import auth, commands, present, usecases
from service.deps import Deps
from service.errors import Problem
from service.schemas import Action, GameCreate, PlayerCreate

bp = Blueprint("api", __name__, url_prefix="/v1")
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
DIGITS = re.compile(r"[0-9]{1,18}")
IDEM_KEY = re.compile(r"[\x21-\x7e]{1,128}")
MAX_DEPTH = 32  # no request body needs more; 10,000 levels would crash the JSON decoder
JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
NOT_BRACKET = bytes(c for c in range(256) if c not in b"[]{}")
EMPTY_PAIR = re.compile(rb"\[\]|\{\}")


def deps() -> Deps:
    return current_app.extensions["marketfold"]


def body() -> Any:
    """Return the JSON body, or raise 422 if it is not JSON or nests too deeply."""
    raw, limit = request.get_data(cache=True), request.max_content_length
    if request.content_length is None and limit and len(raw) >= limit:
        # a chunked body is cut off at the limit (werkzeug); say so rather than "not JSON"
        raise Problem(413, "body_too_large", f"bodies here are limited to {limit} bytes")
    if _too_deep(raw, MAX_DEPTH):
        raise Problem(
            422,
            "invalid_body",
            f"the body nests arrays and objects deeper than {MAX_DEPTH} levels",
            errors={"_body": [f"at most {MAX_DEPTH} levels of nesting"]},
        )
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # belt and braces: the depth check should catch it first
        data = None
    if data is None:
        raise Problem(
            422,
            "invalid_body",
            "the body must be a JSON object",
            errors={"_body": ["not valid JSON"]},
        )
    return data


def _too_deep(raw: bytes, limit: int) -> bool:
    """Return True if JSON text nests deeper than `limit`, in C-speed passes: strip the
    strings, keep the brackets, then peel one level of empty pairs per pass."""
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False
    brackets = JSON_STRING.sub(b"", raw).translate(None, NOT_BRACKET)
    for _ in range(limit):
        peeled = EMPTY_PAIR.sub(b"", brackets)
        if len(peeled) == len(brackets):
            break  # unbalanced or stray brackets: not JSON, the decoder will say so
        brackets = peeled
    return EMPTY_PAIR.search(brackets) is not None


def game_id_ok(game_id: str) -> str:
    if not GAME_ID.fullmatch(game_id):
        raise Problem(404, "game_not_found", f"no game {game_id!r}")
    return game_id


def lang() -> str:
    return present.language(request.headers.get("Accept-Language"))


@bp.post("/players")
def create_player():
    data = PlayerCreate().load(body())
    return usecases.create_player(deps(), data["name"]), 201


@bp.get("/rulesets")
def list_rulesets():
    out = [
        {
            "id": g.id,
            "name": g.names.get(lang(), g.names["en"]),
            "min_players": g.min_players,
            "max_players": g.max_players,
            "rules_version": g.rules_version,
            "options": g.options_schema,
        }
        for g in games.REGISTRY.values()
    ]
    return {"rulesets": out}


@bp.post("/games")
def create_game():
    player = auth.caller(deps())
    data = GameCreate().load(body())
    done = usecases.create_game(
        deps(),
        player["id"],
        data["ruleset"],
        data["players"],
        data["options"],
        data["decision_timeout_s"],
    )
    return _game_response(done.record, None, 201)


@bp.get("/games/<game_id>")
def get_game(game_id: str):
    player = auth.caller(deps(), required=False)
    rec = commands.load(deps(), game_id_ok(game_id)).record
    seat = rec.seat_of(player["id"]) if player else None
    return _game_response(rec, seat, 200)


def _game_response(rec, seat: int | None, status: int) -> Response:
    response = jsonify(present.game(rec, seat, lang()))
    response.status_code = status
    response.set_etag(str(rec.version))
    return response.make_conditional(request) if status == 200 else response


@bp.post("/games/<game_id>/join")
def join_game(game_id: str):
    player = auth.caller(deps())
    done = usecases.join(deps(), game_id_ok(game_id), player)
    seat = done.record.seat_of(player["id"])
    return {"seat": seat, "version": done.record.version, "status": done.record.status}, 200


@bp.get("/games/<game_id>/legal")
def legal_actions(game_id: str):
    player = auth.caller(deps())
    rec = commands.load(deps(), game_id_ok(game_id)).record
    seat = decide.seat_of(rec, player["id"])
    specs = rec.game.legal(rec.state, seat) if rec.status == "active" else []
    return {
        "version": rec.version,
        "actions": [{"type": s.type, "schema": s.schema, "choices": s.choices} for s in specs],
    }


@bp.post("/games/<game_id>/actions")
def post_action(game_id: str):
    player = auth.caller(deps())
    game_id_ok(game_id)
    action = Action().load(body())
    key = request.headers.get("Idempotency-Key") or usecases.new_id("auto_")
    if not IDEM_KEY.fullmatch(key):
        raise Problem(
            422,
            "invalid_header",
            "Idempotency-Key must be 1-128 visible ASCII chars",
            errors={"Idempotency-Key": ["1-128 visible ASCII characters"]},
        )
    done = usecases.act(deps(), game_id, player["id"], action, key, _if_match())
    seat = done.record.seat_of(player["id"])
    events = present.events(done.record, done.envelopes, seat)
    answer = {"version": done.version, "events": events, "owed": done.owed, "pending": done.pending}
    return answer, 202 if done.pending else 201


def _if_match() -> int | None:
    raw = request.headers.get("If-Match")
    if raw is None:
        return None
    value = raw.strip().removeprefix("W/").strip('"')
    if value == "*":
        return None  # any current version
    if not DIGITS.fullmatch(value):
        raise Problem(
            422,
            "invalid_header",
            'If-Match must be a game version, e.g. "12"',
            errors={"If-Match": ["must be a version number"]},
        )
    return int(value)


@bp.get("/games/<game_id>/events")
def list_events(game_id: str):
    player = auth.caller(deps(), required=False)
    after = request.args.get("after", "0")
    if not DIGITS.fullmatch(after):
        raise Problem(
            422,
            "invalid_query",
            "after must be a whole number",
            errors={"after": ["must be a whole number >= 0"]},
        )
    rec = commands.load(deps(), game_id_ok(game_id)).record
    seat = rec.seat_of(player["id"]) if player else None
    envelopes = deps().store.read(game_id, int(after))
    envelopes = [e for e in envelopes if e["seq"] <= rec.version]
    return {"version": rec.version, "events": present.events(rec, envelopes, seat)}


@bp.get("/games/<game_id>/export")
def export_game(game_id: str):
    player = auth.caller(deps(), required=False)
    rec = commands.load(deps(), game_id_ok(game_id)).record
    seat = rec.seat_of(player["id"]) if player else None
    if rec.status != "finished":
        if player is None:
            raise Problem(401, "unauthorized", "a game in play is exported to its players only")
        decide.seat_of(rec, player["id"])
    envelopes = [e for e in deps().store.read(game_id) if e["seq"] <= rec.version]
    return audit.bundle(rec, present.events(rec, envelopes, seat), rec.seed)


@bp.get("/games/<game_id>/state")
def state_at(game_id: str):
    player = auth.caller(deps(), required=False)
    at = request.args.get("at", "")
    if not DIGITS.fullmatch(at) or int(at) < 1:
        raise Problem(
            422,
            "invalid_query",
            "at must be a whole number >= 1",
            errors={"at": ["must be a whole number >= 1"]},
        )
    now = commands.load(deps(), game_id_ok(game_id)).record
    if int(at) > now.version:
        raise Problem(
            422,
            "invalid_query",
            f"the game has {now.version} events",
            errors={"at": [f"must be at most {now.version}"]},
        )
    past = fold_all(Record(game_id), deps().store.read(game_id, 0, int(at)))
    seat = now.seat_of(player["id"]) if player else None
    shown = present.game(past, seat, lang())
    if now.status == "finished" and past.state is not None:  # everything opens at the end
        shown["views"] = [past.game.view(past.state, s, lang()) for s in range(past.players)]
    return shown


@bp.post("/verify")
def verify_bundle():
    data = body()
    if not isinstance(data, dict):
        raise Problem(
            422,
            "invalid_body",
            "the body must be an exported bundle",
            errors={"_body": ["must be a JSON object"]},
        )
    return audit.verify(data).to_json()

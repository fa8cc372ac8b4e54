"""Moderation routes (service.moderation): players report, operators act."""

from __future__ import annotations

from flask import Blueprint, request

from api import auth
from api.context import boot
from api.parse import FEED_ID, GAME_ID, body
from api.parse import game_id as game_id_ok
from service import moderation
from service.errors import Invalid, NotFound

bp = Blueprint("moderation", __name__, url_prefix="/v1")


def _operator() -> str:
    player = auth.caller(boot())
    moderation.require_operator(boot(), player["id"])
    return player["id"]


def _player_id(value: str) -> str:
    if not GAME_ID.fullmatch(value):
        raise NotFound("player_not_found", f"no player {value!r}")
    return value


def _object() -> dict:
    data = body() if request.content_length else {}
    if not isinstance(data, dict):
        raise Invalid("invalid_body", "the body is a JSON object", errors={"": ["an object"]})
    return data


@bp.post("/reports")
def file_report():
    player = auth.caller(boot())
    data = _object()
    for name in ("player", "game", "message"):
        if data.get(name) is not None and not isinstance(data[name], str):
            raise Invalid("invalid_body", f"{name} is an id", errors={name: ["a string"]})
    if data.get("message") is not None and not FEED_ID.fullmatch(data["message"]):
        raise NotFound("message_not_found", f"no message {data['message']!r}")
    return moderation.report(boot(), player, data), 201


@bp.get("/reports")
def list_reports():
    _operator()
    status = request.args.get("status")
    if status not in (None, "open", "closed"):
        raise Invalid(
            "invalid_query", "status is open or closed", errors={"status": ["open, closed"]}
        )
    return {"reports": moderation.reports(boot(), status)}


@bp.post("/reports/<report_id>/close")
def close_report(report_id: str):
    operator = _operator()
    if not FEED_ID.fullmatch(report_id):
        raise NotFound("report_not_found", f"no report {report_id!r}")
    return moderation.close_report(boot(), operator, report_id, _object().get("note"))


@bp.get("/players/<player_id>/moderation")
def player_moderation(player_id: str):
    _operator()
    return moderation.standing(boot(), _player_id(player_id))


@bp.post("/players/<player_id>/mute")
def mute_player(player_id: str):
    operator = _operator()
    reason = _object().get("reason")
    return moderation.mute(boot(), operator, _player_id(player_id), reason, True)


@bp.delete("/players/<player_id>/mute")
def unmute_player(player_id: str):
    return moderation.mute(boot(), _operator(), _player_id(player_id), None, False)


@bp.post("/players/<player_id>/ban")
def ban_player(player_id: str):
    operator = _operator()
    return moderation.ban(boot(), operator, _player_id(player_id), _object().get("reason"))


@bp.delete("/players/<player_id>/ban")
def unban_player(player_id: str):
    return moderation.unban(boot(), _operator(), _player_id(player_id))


@bp.post("/games/<game_id>/chat/<message_id>/hide")
def hide_message(game_id: str, message_id: str):
    operator = _operator()
    if not FEED_ID.fullmatch(message_id):
        raise NotFound("message_not_found", f"no message {message_id!r}")
    reason = _object().get("reason")
    return moderation.hide(boot(), operator, game_id_ok(game_id), message_id, reason)

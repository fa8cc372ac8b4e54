"""Table chat routes: post to a game's chat, read it (service.chat)."""

from __future__ import annotations

from flask import Blueprint, request

from api import auth
from api.context import boot
from api.parse import FEED_ID, body
from api.parse import game_id as game_id_ok
from api.schemas import ChatPost
from service import chat, game_queries, moderation
from service.errors import Invalid

bp = Blueprint("chat", __name__, url_prefix="/v1")


@bp.post("/games/<game_id>/chat")
def post_chat(game_id: str):
    player = auth.caller(boot())
    rec = game_queries.load(boot(), game_id_ok(game_id))
    text = ChatPost().load(body())["text"]
    moderation.check_may_chat(boot(), player["id"])
    return chat.post(boot(), rec, player, text), 201


@bp.get("/games/<game_id>/chat")
def read_chat(game_id: str):
    player = auth.caller(boot(), required=False)
    rec = game_queries.load(boot(), game_id_ok(game_id))
    after = request.args.get("after", "0-0")
    if not FEED_ID.fullmatch(after):
        errors = {"after": ["a message id such as 1712345678901-0"]}
        raise Invalid("invalid_query", "after must be a message id", errors=errors)
    operator = player is not None and moderation.is_operator(boot(), player["id"])
    messages = chat.read(boot(), rec, game_queries.seat(rec, player), after, operator)
    return {"messages": messages}

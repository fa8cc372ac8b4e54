"""A player's webhooks under /v1/players/me/webhooks (service/notify/webhooks.py)."""

from __future__ import annotations

from flask import Blueprint, Response, request

from api import auth
from api.context import boot
from api.notify_schemas import WebhookCreate, WebhookUpdate
from api.parse import body, path_id
from service.notify import webhooks

bp = Blueprint("webhooks", __name__, url_prefix="/v1/players/me/webhooks")


def _webhook(webhook_id: str) -> str:
    return path_id(webhook_id, "webhook_not_found", "webhook")


@bp.post("")
def create_webhook():
    player = auth.caller(boot())
    data = WebhookCreate().load(body())
    return webhooks.create(boot(), player["id"], data["url"], data["types"]), 201


@bp.get("")
def list_webhooks():
    player = auth.caller(boot())
    return {"webhooks": webhooks.listed(boot(), player["id"])}


@bp.get("/<webhook_id>")
def get_webhook(webhook_id: str):
    player = auth.caller(boot())
    return webhooks.shown(boot(), player["id"], _webhook(webhook_id))


@bp.patch("/<webhook_id>")
def update_webhook(webhook_id: str):
    player = auth.caller(boot())
    changes = WebhookUpdate().load(body())
    return webhooks.update(boot(), player["id"], _webhook(webhook_id), changes)


@bp.delete("/<webhook_id>")
def delete_webhook(webhook_id: str):
    player = auth.caller(boot())
    webhooks.delete(boot(), player["id"], _webhook(webhook_id))
    return Response(status=204)


@bp.post("/<webhook_id>/rotate")
def rotate_webhook_secret(webhook_id: str):
    player = auth.caller(boot())
    return webhooks.rotate(boot(), player["id"], _webhook(webhook_id))


@bp.get("/<webhook_id>/deliveries")
def webhook_deliveries(webhook_id: str):
    player = auth.caller(boot())
    return {"deliveries": webhooks.deliveries(boot(), player["id"], _webhook(webhook_id))}


@bp.post("/<webhook_id>/ping")
def ping_webhook(webhook_id: str):
    player = auth.caller(boot())
    return webhooks.ping(boot(), player["id"], _webhook(webhook_id), request.host_url)

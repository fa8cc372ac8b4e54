"""Web Push: the service's VAPID public key and a player's browser subscriptions
(service/notify/push.py)."""

from __future__ import annotations

from flask import Blueprint, Response

from api import auth
from api.context import boot
from api.limits import storeless
from api.notify_schemas import PushSubscriptionCreate
from api.parse import body, path_id
from service.notify import push

bp = Blueprint("push", __name__, url_prefix="/v1")


@bp.get("/push/key")
@storeless
def push_key():
    return {"public_key": push.public_key(boot())}


@bp.post("/players/me/push-subscriptions")
def create_push_subscription():
    player = auth.caller(boot())
    data = PushSubscriptionCreate().load(body())
    record, new = push.subscribe(boot(), player["id"], data)
    return record, 201 if new else 200


@bp.get("/players/me/push-subscriptions")
def list_push_subscriptions():
    player = auth.caller(boot())
    return {"subscriptions": push.listed(boot(), player["id"])}


@bp.delete("/players/me/push-subscriptions/<subscription_id>")
def delete_push_subscription(subscription_id: str):
    player = auth.caller(boot())
    sub = path_id(subscription_id, "push_subscription_not_found", "push subscription")
    push.unsubscribe(boot(), player["id"], sub)
    return Response(status=204)

"""The public log of games over HTTP: signed tree heads, proofs, leaves, a game's receipt
(service/transparency.py), checkpoints and witnesses' cosignatures (service/checkpoints.py;
docs/audit.md says what each proves)."""

from __future__ import annotations

from flask import Blueprint, Response, request

from api.context import boot
from api.parse import body, number
from api.parse import game_id as game_id_ok
from service import checkpoints, transparency

bp = Blueprint("transparency", __name__, url_prefix="/v1")


@bp.get("/transparency/head")
def tree_head():
    return transparency.head(boot())


@bp.get("/transparency/checkpoint")
def tree_checkpoint():
    text = checkpoints.checkpoint(boot(), request.args.get("witness"))
    return Response(text, mimetype="text/plain")


@bp.post("/transparency/cosignatures")
def add_cosignature():
    return checkpoints.cosign(boot(), body())


@bp.get("/transparency/consistency")
def tree_consistency():
    first = number("first", request.args.get("first", ""), least=1)
    second = number("second", request.args.get("second", ""), least=1)
    return transparency.consistency(boot(), first, second)


@bp.get("/transparency/leaves")
def tree_leaves():
    start = number("start", request.args.get("start", "0"))
    end = request.args.get("end")
    return transparency.leaves(boot(), start, None if end is None else number("end", end))


@bp.get("/games/<game_id>/transparency")
def game_receipt(game_id: str):
    return transparency.receipt(boot(), game_id_ok(game_id))

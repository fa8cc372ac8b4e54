"""`GET /metrics`: the operator's figures in the Prometheus text format (service/metrics.py).

Who may read it: with `METRICS_TOKEN` set, a caller presenting it as a bearer token; with
none, callers on this machine only (a loopback address, after `TRUSTED_PROXIES`). The
figures are the operator's: request and append counts move when any game moves, private
steps included, so an open `/metrics` would time other players' hidden moves.
"""

from __future__ import annotations

import hmac
import ipaddress

from flask import Blueprint, Response, current_app, request

from api.context import boot
from api.errors import Problem
from service import metrics

bp = Blueprint("metrics", __name__)


@bp.get("/metrics")
def read_metrics():
    _check_access()
    return Response(metrics.exposition(boot()), content_type=metrics.CONTENT_TYPE)


def _check_access() -> None:
    token = str(current_app.config.get("METRICS_TOKEN") or "")
    if token:
        given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
        if not hmac.compare_digest(given.encode(), token.encode()):
            raise Problem(401, "unauthorized", "GET /metrics needs the bearer METRICS_TOKEN")
        return
    try:
        local = ipaddress.ip_address(request.remote_addr or "").is_loopback
    except ValueError:
        local = False
    if not local:
        raise Problem(
            403,
            "metrics_forbidden",
            "GET /metrics answers callers on the server's own machine only; "
            "set METRICS_TOKEN on the server to read it from elsewhere",
        )

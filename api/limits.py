"""Rate limits as HTTP shows them (the counting is service.limits): every answer of a
counted call carries the IETF `RateLimit-Policy` and `RateLimit` headers; a caller over
its limit gets 429 `rate_limited` with `Retry-After`.

Routes that need no Redis (the rulesets, the web client, static files: marked
with `storeless`) count with the store's quick client (service.bootstrap: it gives up
within QUICK_TIMEOUT_S), and after a failure skip the count for QUIET_S: a stalled Redis
never holds them (api.entry)."""

from __future__ import annotations

from collections.abc import Callable

import redis
from flask import Flask, Request, Response, request

from api import auth
from api.context import RequestContext, boot, current
from api.errors import Problem
from service.limits import Count

UNLIMITED = ("/healthz", "/readyz", "/metrics", "/openapi.yaml", "/docs")
QUIET_S = 1.0  # after the quick count failed, routes that need no Redis skip it this long


def storeless(view: Callable) -> Callable:
    """Mark a view that answers without Redis: its rate count must not wait for one."""
    view.needs_no_store = True  # type: ignore[attr-defined]
    return view


def needs_no_store(req: Request, app: Flask) -> bool:
    """Return True if request `req` to `app` goes to a route that answers without Redis
    (`storeless`)."""
    endpoint = req.endpoint
    if endpoint == "static":
        return True
    view = app.view_functions.get(endpoint or "")
    return bool(getattr(view, "needs_no_store", False))


def identity() -> str:
    """Return who the caller counts as for its open streams: `player:<id>` for a valid
    token, else `ip:<address>`."""
    try:
        player = auth.caller(boot(), required=False, strict=False)
    except redis.RedisError:  # the store is down: the view will answer 503
        player = None
    if player is not None:
        return "player:" + player["id"]
    return "ip:" + (request.remote_addr or "unknown")


def settle(ctx: RequestContext, count: Count | None) -> None:
    """Keep the call's count for the answer's headers; refuse a call past the limit
    (429). None (the limiter is down) lets the call through."""
    if count is None:
        return
    ctx.count = count
    if count.over:
        raise Problem(429, "rate_limited", "too many calls; retry later", count.reset_s)


def headers(response: Response) -> Response:
    """Add the rate-limit headers of a counted call to its answer."""
    count = current().count
    if count is None:
        return response
    (amount, window), remaining, reset = count.limit, count.remaining, count.reset_s
    response.headers["RateLimit-Policy"] = f'"default";q={amount};w={window}'
    response.headers["RateLimit"] = f'"default";r={remaining};t={reset}'
    if response.status_code == 429:  # unless the 429 set its own (too many streams)
        response.headers.setdefault("Retry-After", str(max(1, reset)))
    return response

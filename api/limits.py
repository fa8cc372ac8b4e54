"""Rate limits per token, and per IP for anonymous calls, counted in Redis (Flask-Limiter).

Every answer carries the IETF `RateLimit-Policy` and `RateLimit` headers; a caller over its
limit gets 429 `rate_limited` with `Retry-After`. Limits are configuration:
`RATE_LIMIT_TOKEN` and `RATE_LIMIT_ANON`, in Flask-Limiter's notation ("600/minute").
"""

from __future__ import annotations

import math
import time
from typing import Any

import redis
from flask import Flask, Response, request
from flask_limiter import Limiter
from limits import parse

from api import auth
from api.context import boot
from events import keys

UNLIMITED = ("/healthz", "/openapi.yaml", "/docs")


def identity() -> str:
    """Count a request against its token if the token is real, else against its address
    (so inventing tokens buys no extra budget)."""
    try:
        player = auth.caller(boot(), required=False, strict=False)
    except redis.RedisError:  # the store is down: the view will answer 503
        player = None
    if player is not None:
        return "player:" + player["id"]
    return "ip:" + (request.remote_addr or "unknown")


def _storage_uri(redis_url: str) -> str:
    """Return the `limits` storage URI for a redis-py URL (unix sockets differ)."""
    if redis_url.startswith("unix://"):
        return "redis+unix://" + redis_url.removeprefix("unix://")
    return redis_url


def install(app: Flask, cfg: dict[str, Any]) -> Limiter:
    """Attach the limiter and its headers to `app`."""

    def limit_for_caller() -> str:
        known = identity().startswith("player:")
        return cfg["RATE_LIMIT_TOKEN"] if known else cfg["RATE_LIMIT_ANON"]

    limiter = Limiter(
        identity,
        app=app,
        application_limits=[limit_for_caller],  # one budget per caller across all routes
        application_limits_exempt_when=lambda: request.path.startswith(UNLIMITED),
        storage_uri=_storage_uri(cfg["REDIS_URL"]),
        strategy="fixed-window",
        key_prefix=keys.rate_limits(),
        headers_enabled=False,
        swallow_errors=True,  # a limiter outage must not take the API down
    )

    @app.after_request
    def rate_headers(response: Response) -> Response:
        current = limiter.current_limit
        if current is None:
            return response
        item = current.limit
        window = item.get_expiry()
        reset = max(0, math.ceil(current.window[0] - time.time()))
        response.headers["RateLimit-Policy"] = f'"default";q={item.amount};w={window}'
        response.headers["RateLimit"] = f'"default";r={max(0, current.remaining)};t={reset}'
        if response.status_code == 429:  # unless the 429 set its own (too many streams)
            response.headers.setdefault("Retry-After", str(max(1, reset)))
        return response

    parse(cfg["RATE_LIMIT_TOKEN"]), parse(cfg["RATE_LIMIT_ANON"])  # fail fast on a typo
    return limiter

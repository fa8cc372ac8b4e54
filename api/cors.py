"""CORS: web pages served from other origins may call `/v1` from a browser when the operator
lists their origins in `CORS_ORIGINS` (none by default, so a browser refuses every
cross-origin answer). flask-cors answers the preflights and adds the headers; the token
travels as an `Authorization` header (never a cookie), so credentials mode stays off.
docs/clients.md, "Web clients on other origins".
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, request
from flask_cors import CORS

# what a client sends and reads beyond the CORS-safelisted headers
ALLOW = [
    "Authorization",
    "Content-Type",
    "Idempotency-Key",
    "If-Match",
    "If-None-Match",
    "Last-Event-ID",
    "Accept-Language",
]
EXPOSE = ["ETag", "Location", "Retry-After", "RateLimit", "RateLimit-Policy", "X-Request-Id"]


def methods(app: Flask) -> list[str]:
    """Every method a /v1 route answers (HEAD aside, OPTIONS added): read from the routes
    themselves, so a new route's method is never left out of the preflights' answer."""
    found = {
        m
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/v1/")
        for m in rule.methods or ()
    }
    return sorted(found - {"HEAD", "OPTIONS"}) + ["OPTIONS"]


def install(app: Flask, cfg: dict[str, Any]) -> None:
    """Allow the configured origins on /v1 (nothing at all when none is configured); the
    routes must be registered first."""
    origins = cfg.get("CORS_ORIGINS") or []
    if not origins:
        return
    CORS(
        app,
        resources={r"/v1/*": {"origins": "*" if "*" in origins else origins}},
        allow_headers=ALLOW,
        expose_headers=EXPOSE,
        methods=methods(app),
        supports_credentials=False,
        max_age=600,
        vary_header=False,  # flask-cors adds it only when two or more origins are listed
    )
    if "*" in origins:
        return  # one answer for every origin

    @app.after_request
    def vary_by_origin(response: Response) -> Response:
        """A cache between the server and browsers keeps one answer per origin: the one
        for a listed origin carries `Access-Control-Allow-Origin`, any other none."""
        if request.path.startswith("/v1/"):
            response.vary.add("Origin")  # beside the app's own (Authorization, ...)
        return response

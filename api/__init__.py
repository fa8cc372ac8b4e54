"""The HTTP entry point: the Flask app factory, its blueprints, and everything that knows
HTTP (schemas, auth, limits, streams, presentation, problem+json)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask, Response, request
from flask_swagger_ui import get_swaggerui_blueprint

from api import (
    admission,
    chat,
    errors,
    games,
    league_page,
    leagues,
    limits,
    players,
    replay,
    sse,
    web,
)
from api.context import boot
from api.errors import Problem
from api.json_provider import OrjsonProvider
from service import bootstrap, config
from workers.scheduler import RqScheduler

SPEC = Path(__file__).resolve().parent.parent / "openapi.yaml"


def create_app(overrides: dict[str, Any] | None = None) -> Flask:
    """Build the app from the environment's configuration plus `overrides`."""
    app = Flask(__name__)
    app.json = OrjsonProvider(app)
    cfg = {**config.load(), **(overrides or {})}
    app.config.update(cfg)
    app.json.sort_keys = False
    app.extensions["marketfold"] = bootstrap.connect(app.config, RqScheduler.connect)
    app.register_blueprint(games.bp)
    app.register_blueprint(sse.bp)
    app.register_blueprint(leagues.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(chat.bp)
    app.register_blueprint(replay.bp)
    app.register_blueprint(league_page.bp)
    app.register_blueprint(web.bp)
    app.register_blueprint(
        get_swaggerui_blueprint("/docs", "/openapi.yaml", config={"app_name": "marketfold API"})
    )
    errors.register(app)
    admission.install(app)  # before the limiter: an admitted action skips its round trip
    limits.install(app, cfg)

    @app.before_request
    def limit_body() -> None:
        limit = cfg["MAX_BUNDLE_BYTES"] if request.path == "/v1/verify" else cfg["MAX_BODY_BYTES"]
        request.max_content_length = limit
        if (request.content_length or 0) > limit:
            raise Problem(413, "body_too_large", f"bodies here are limited to {limit} bytes")

    @app.after_request
    def per_caller(response: Response) -> Response:
        if request.path.startswith("/v1/"):  # answers depend on who asks, in which language
            response.headers["Vary"] = "Authorization, Accept-Language"
            response.headers.setdefault("Cache-Control", "no-cache")
        return response

    @app.get("/openapi.yaml")
    def openapi_spec():
        return Response(SPEC.read_text("utf-8"), mimetype="application/yaml")

    @app.get("/healthz")
    def health():
        boot().ping()
        return {"status": "ok"}

    return app

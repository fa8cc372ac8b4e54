"""The HTTP entry point: the Flask app factory, its blueprints, and everything that knows
HTTP (schemas, auth, limits, streams, presentation, problem+json)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from flask import Flask, Response, request
from werkzeug.middleware.proxy_fix import ProxyFix

from api import (
    access,
    chat,
    cors,
    docs_ui,
    entry,
    errors,
    games,
    league_disputes,
    league_page,
    league_reports,
    leagues,
    metrics,
    moderation,
    notifications,
    offload,
    players,
    push,
    replay,
    rules_page,
    sse,
    transparency,
    uploads,
    web,
    webhooks,
)
from api.context import boot
from api.errors import Problem
from api.json_provider import OrjsonProvider
from service import readiness
from service.bootstrap import Bootstrap

SPEC = Path(__file__).resolve().parent.parent / "openapi.yaml"


def create_app(deps: Bootstrap) -> Flask:
    """Build the app on `deps`, the process's dependencies and their configuration (built
    by the composition root, cli/compose.py: `cli.compose.create_app(overrides)`)."""
    app = Flask(__name__)
    _sync_checked_once(app)
    app.json = OrjsonProvider(app)
    app.config.update(deps.config)
    deps.config = cfg = app.config  # one object: what the app's config says, the service reads
    app.json.sort_keys = False
    app.extensions["marketfold"] = deps
    app.register_blueprint(games.bp)
    app.register_blueprint(sse.bp)
    app.register_blueprint(transparency.bp)
    app.register_blueprint(leagues.bp)
    app.register_blueprint(league_reports.bp)
    app.register_blueprint(league_disputes.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(notifications.bp)
    app.register_blueprint(chat.bp)
    app.register_blueprint(moderation.bp)
    app.register_blueprint(replay.bp)
    app.register_blueprint(league_page.bp)
    app.register_blueprint(web.bp)
    app.register_blueprint(webhooks.bp)
    app.register_blueprint(push.bp)
    app.register_blueprint(rules_page.bp)
    app.register_blueprint(docs_ui.blueprint(SPEC))
    errors.register(app)
    app.register_blueprint(metrics.bp)
    access.install(app, cfg)  # first: its timing starts before the request's round trips
    entry.install(app, cfg)  # the request's context: admitted, or its first round trip
    cors.install(app, cfg)
    app.wsgi_app = uploads.Uploads(app.wsgi_app, cfg)  # type: ignore[method-assign]
    offload.install(app, cfg)  # costly views in helper processes
    if proxies := int(cfg["TRUSTED_PROXIES"]):  # outermost: every layer sees the caller
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)

    @app.before_request
    def limit_body() -> None:
        req = request._get_current_object()  # one lookup of the request's proxy
        limit = cfg["MAX_BUNDLE_BYTES"] if req.path == "/v1/verify" else cfg["MAX_BODY_BYTES"]
        req.max_content_length = limit
        if (req.content_length or 0) > limit:
            raise Problem(413, "body_too_large", f"bodies here are limited to {limit} bytes")

    @app.after_request
    def per_caller(response: Response) -> Response:
        if request.path.startswith("/v1/"):  # answers depend on who asks, in which language
            response.vary.update(("Authorization", "Accept-Language"))  # keeps `Origin`
            response.headers.setdefault("Cache-Control", "no-cache")
        return response

    @app.get("/openapi.yaml")
    def openapi_spec():
        return Response(SPEC.read_text("utf-8"), mimetype="application/yaml")

    @app.get("/healthz")
    def health():
        boot().ping()
        return {"status": "ok"}

    @app.get("/readyz")
    def ready():
        ok, checks = readiness.check(boot())
        return {"status": "ready" if ok else "unready", "checks": checks}, 200 if ok else 503

    return app


def _sync_checked_once(app: Flask) -> None:
    """Flask asks of each view and hook it runs, on every request, whether it is a
    coroutine function (`inspect`, five or more times a request): ask once a function."""
    checked: dict[Callable, Callable] = {}
    plain = app.ensure_sync

    def ensure_sync(func: Callable) -> Callable:
        try:
            return checked[func]
        except KeyError:
            synced = plain(func)
            if len(checked) < 1024:  # the app's views and hooks, not callables made per call
                checked[func] = synced
            return synced
        except TypeError:  # an unhashable callable
            return plain(func)

    app.ensure_sync = ensure_sync  # type: ignore[method-assign]

"""The web client: `GET /` serves the page where people play (docs/clients.md, "Playing in
the browser"). The page and its ES modules are plain files in `api/static/app/` (served by
the app's `/static/` route) and draw views with `api/static/shared/`, which the replay viewer
uses too. It reads and acts through the public `/v1` API only, so it can never show or do
more than any other client; it is served with the replay viewer's strict policy.
"""

from __future__ import annotations

from flask import Blueprint, Response, send_from_directory

from api.limits import storeless
from api.replay import ASSETS, POLICY

APP = ASSETS.parent / "app"

bp = Blueprint("web", __name__)


@bp.get("/")
@storeless
def index() -> Response:
    """Serve the web client's page."""
    response = send_from_directory(APP, "index.html", mimetype="text/html")
    response.headers["Content-Security-Policy"] = POLICY
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


@bp.get("/sw.js")
@storeless
def service_worker() -> Response:
    """Serve the web client's service worker (Web Push: it shows a notification and opens
    its link on a click). Served from the root, its scope is the whole site without a
    `Service-Worker-Allowed` header; the page's policy lets it load (`worker-src` falls
    back to `script-src 'self'`), and it is never cached, so a new version is picked up."""
    response = send_from_directory(ASSETS.parent, "sw.js", mimetype="text/javascript")
    response.headers["Content-Security-Policy"] = POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Cache-Control"] = "no-cache"
    return response

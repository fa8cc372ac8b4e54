"""The replay viewer: one HTML page per game that steps through its history in the browser.

The page and its assets are plain files in `api/static/replay/`. The HTML is served
here; its CSS and JS are served by the app's own `/static/` route, so this blueprint adds
one route and nothing else. The page reads everything it shows from the public API
(`/v1/games/{id}/events` and `/v1/games/{id}/state?at=N`), as a spectator unless the user
pastes a player token into it, so it can never show more than the API allows.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path

from flask import Blueprint, Response, send_from_directory

from api.context import boot
from api.parse import GAME_ID
from service import game_queries
from service.errors import NotFound

ASSETS = Path(__file__).resolve().parent / "static" / "replay"
# The page may talk to this service only: no other host, no inline code, no framing.
POLICY = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ]
)

bp = Blueprint("replay", __name__)
# RFC 9239's type for JavaScript; older mime tables (Python 3.11's own) say application/javascript.
mimetypes.add_type("text/javascript", ".js")


@bp.get("/games/<game_id>/replay")
def replay_page(game_id: str) -> Response:
    """Serve the replay viewer for an existing game."""
    if not GAME_ID.fullmatch(game_id) or not game_queries.exists(boot(), game_id):
        raise NotFound("game_not_found", f"no game {game_id!r}")
    response = send_from_directory(ASSETS, "replay.html", mimetype="text/html")
    response.headers["Content-Security-Policy"] = POLICY
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response

"""The "How to play" pages: `GET /rules/<ruleset>` serves one game's rules for players, in
English or Spanish (`?lang=`, else the browser's Accept-Language), written for the table from
docs/rules/ in the project's own words. The pages are plain HTML fragments in
`api/static/rules/`, wrapped here in one page with the web client's styles and served under
the same strict Content-Security-Policy as the web client and the replay viewer.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, request
from markupsafe import Markup, escape

from api.limits import storeless
from api.replay import POLICY
from service.errors import Invalid, NotFound

PAGES = Path(__file__).resolve().parent / "static" / "rules"
LANGS = ("en", "es")
WORDS = {
    "en": {"back": "← Back to the games", "other": "En español", "title": "How to play"},
    "es": {"back": "← Volver a las partidas", "other": "In English", "title": "Cómo se juega"},
}

bp = Blueprint("rules_page", __name__)


def _lang() -> str:
    asked = request.args.get("lang")
    if asked in LANGS:
        return asked
    if asked is not None:
        raise Invalid("invalid_query", "lang is en or es", errors={"lang": ["one of en, es"]})
    return request.accept_languages.best_match(LANGS, default="en") or "en"


@bp.get("/rules/<ruleset>")
@storeless
def rules_page(ruleset: str) -> Response:
    """Serve the How to play page of `ruleset` in the asked language."""
    lang = _lang()
    page = PAGES / f"{ruleset}.{lang}.html"
    known = len(ruleset) <= 64 and ruleset.replace("-", "").isalpha()  # before any file call
    if not known or not page.is_file():
        raise NotFound("ruleset_not_found", f"no rules page for {ruleset!r}")
    other = "es" if lang == "en" else "en"
    words = WORDS[lang]
    body = Markup(page.read_text("utf-8"))  # our own pages, not anybody's input
    html = Markup(
        '<!doctype html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="referrer" content="no-referrer">\n<link rel="icon" href="data:,">\n'
        "<title>{title}</title>\n"
        '<link rel="stylesheet" href="/static/replay/replay.css">\n'
        '<link rel="stylesheet" href="/static/app/app.css">\n'
        '<link rel="stylesheet" href="/static/app/board.css">\n'
        '</head>\n<body class="client rules-page">\n<header class="site">'
        '<a class="brand" href="/#/">marketfold</a>'
        '<a href="/rules/{ruleset}?lang={other}" hreflang="{other}" lang="{other}">{other_word}</a>'
        '</header>\n<main id="app" class="rules">\n{body}\n<p><a href="/#/">{back}</a></p>\n'
        "</main>\n</body>\n</html>\n"
    ).format(
        lang=lang,
        title=escape(f"{words['title']} · {ruleset}"),
        ruleset=escape(ruleset),
        other=other,
        other_word=words["other"],
        body=body,
        back=words["back"],
    )
    response = Response(str(html), mimetype="text/html")
    response.headers["Content-Security-Policy"] = POLICY
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Content-Language"] = lang
    response.headers["Vary"] = "Accept-Language"
    return response

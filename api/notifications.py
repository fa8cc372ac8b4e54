"""Notification routes (docs/notifications.md): the caller's inbox and settings under
/v1/players/me, and the two links of an e-mail that work without logging in: the
address's verification and the one-click unsubscribe (RFC 8058)."""

from __future__ import annotations

import html
import re

from flask import Blueprint, Response, request

from api import auth
from api.context import boot
from api.notify_schemas import NotifySettings
from api.parse import body, is_feed_id, number
from service.errors import Invalid, NotFound
from service.notify import dispatch, email, prefs, signing, types
from service.notify import inbox as notes

bp = Blueprint("notifications", __name__, url_prefix="/v1")
NOTE_ID = re.compile(r"n_[0-9a-f]{20}r?|[0-9]{1,20}-[0-9]{1,20}")
FEED_ID = re.compile(r"[0-9]{1,20}-[0-9]{1,20}")
PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'"


@bp.get("/players/me/notifications")
def my_notifications():
    player = auth.caller(boot())
    before = request.args.get("before")
    if before is not None and not (FEED_ID.fullmatch(before) and is_feed_id(before)):
        raise Invalid(
            "invalid_query",
            "before must be a notification's feed_id, such as 1712345678901-0",
            errors={"before": ["a feed id: digits-digits"]},
        )
    limit = number("limit", request.args.get("limit", str(notes.PAGE)), least=1)
    if limit > 100:
        raise Invalid("invalid_query", "limit must be 100 or less", errors={"limit": ["1-100"]})
    unread = request.args.get("unread", "false")
    if unread not in ("true", "false"):
        raise Invalid(
            "invalid_query", "unread must be true or false", errors={"unread": ["true or false"]}
        )
    found = notes.page(boot(), player["id"], before, limit, unread == "true")
    settings = prefs.load(boot(), player["id"])
    for item in found["notifications"]:
        item["title"], item["body"] = dispatch.words(boot(), settings, item["note"])
    return found


@bp.post("/players/me/notifications/<note_id>/read")
def read_one(note_id: str):
    player = auth.caller(boot())
    if not NOTE_ID.fullmatch(note_id):
        raise NotFound("notification_not_found", f"no notification {note_id!r}")
    notes.mark_read(boot(), player["id"], note_id)
    return Response(status=204)


@bp.post("/players/me/notifications/read")
def read_all():
    player = auth.caller(boot())
    notes.mark_all_read(boot(), player["id"])
    return Response(status=204)


@bp.get("/players/me/notification-settings")
def my_settings():
    player = auth.caller(boot())
    return prefs.shown(prefs.load(boot(), player["id"]))


@bp.patch("/players/me/notification-settings")
def update_settings():
    player = auth.caller(boot())
    changes = NotifySettings().load(body())
    address = changes.pop("email", ...)
    settings = prefs.update(boot(), player["id"], changes)
    if address is not ...:
        settings = dispatch.set_address(boot(), player["id"], address)
    if "digest_hour" in changes or "time_zone" in changes:
        dispatch.schedule_digest(boot(), player["id"], settings)
    return prefs.shown(settings)


PAGE_WORDS = {
    "en": {
        "verified": "Address verified",
        "verified_text": "marketfold will send notifications to {address}.",
        "unsubscribe": "Unsubscribe",
        "unsubscribe_text": "Stop the e-mails of this kind: {label}.",
        "button": "Unsubscribe",
    },
    "es": {
        "verified": "Dirección verificada",
        "verified_text": "marketfold enviará los avisos a {address}.",
        "unsubscribe": "Darse de baja",
        "unsubscribe_text": "Dejar de recibir los correos de este tipo: {label}.",
        "button": "Darme de baja",
    },
}


def _page(lang: str, title: str, text: str, form: str = "") -> Response:
    """A page of its own for a person who follows an e-mail's link, in their language."""
    markup = (
        f"<!doctype html><html lang='{lang}'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{html.escape(title)}</title></head><body><h1>{html.escape(title)}</h1>"
        f"<p>{html.escape(text)}</p>{form}<p><a href='/'>marketfold</a></p></body></html>"
    )
    response = Response(markup, mimetype="text/html")
    response.headers["Content-Security-Policy"] = PAGE_POLICY
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Content-Language"] = lang
    return response


def _lang_of(player_id: str) -> str:
    lang = prefs.load(boot(), player_id).get("lang")
    return lang if lang in PAGE_WORDS else "en"


@bp.get("/notifications/verify")
def verify_address():
    found = email.verify(boot(), request.args.get("token", ""))
    if found is None:
        raise Invalid(
            "invalid_token",
            "this link is not valid, has expired, or names an address changed since",
            errors={"token": ["not a valid verification token"]},
        )
    player_id, address = found
    lang = _lang_of(player_id)
    words = PAGE_WORDS[lang]
    return _page(lang, words["verified"], words["verified_text"].format(address=address))


def _unsubscribe_data() -> dict:
    """Who and what the link's token names, or 422 invalid_token."""
    data = signing.unsign(boot(), "unsubscribe", request.args.get("token", ""))
    ok = (
        isinstance(data, dict)
        and data.get("t") in types.CATALOG
        and data.get("c") in types.CHANNELS
    )
    if not ok:
        raise Invalid(
            "invalid_token",
            "this unsubscribe link is not valid",
            errors={"token": ["not a valid unsubscribe token"]},
        )
    return data


@bp.get("/notifications/unsubscribe")
def unsubscribe_page():
    """A person who opens the link sees what it stops and a button (a GET never
    unsubscribes: mail scanners follow links)."""
    data = _unsubscribe_data()
    lang = _lang_of(data["p"])
    words = PAGE_WORDS[lang]
    token = html.escape(request.args.get("token", ""), quote=True)
    form = (
        f"<form method='post' action='/v1/notifications/unsubscribe?token={token}'>"
        "<input type='hidden' name='List-Unsubscribe' value='One-Click'>"
        f"<button type='submit'>{html.escape(words['button'])}</button></form>"
    )
    label = types.LABELS[data["t"]][types.LANGS.index(lang)]
    return _page(lang, words["unsubscribe"], words["unsubscribe_text"].format(label=label), form)


@bp.post("/notifications/unsubscribe")
def unsubscribe():
    """RFC 8058 one-click: the mail client POSTs `List-Unsubscribe=One-Click` to the URL
    of `List-Unsubscribe`; no login, the signed token says who and what."""
    data = _unsubscribe_data()
    prefs.unsubscribe(boot(), data["p"], data["t"], data["c"])
    return {"unsubscribed": {"type": data["t"], "channel": data["c"]}}

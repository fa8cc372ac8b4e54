"""The e-mail channel, over SMTP with the standard library (`smtplib`, `email`).

`SMTP_URL` names the server: `smtp://[user:password@]host[:port]` (STARTTLS when
`SMTP_STARTTLS` is on or the URL says `?starttls=1`) or `smtps://...` (TLS from the first
byte, port 465 by default); the server's certificate is checked against the system's
authorities, or `SMTP_CA_FILE`'s; `SMTP_FROM` is the sender. Without `SMTP_URL` e-mail is off.
A player's address is used only once verified by the link it was sent
(`send_verification`). Each message has a plain-text and an HTML body in the player's
language, a link that opens the table, a Message-ID made of the notification's id (a
second delivery of the same notification has the same one) and the RFC 8058 one-click
unsubscribe of its type (`List-Unsubscribe` + `List-Unsubscribe-Post`).
"""

from __future__ import annotations

import functools
import hashlib
import html
import smtplib
import ssl
from email.message import EmailMessage
from email.utils import formatdate, parseaddr
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from service.notify import prefs, signing, smtp
from service.notify.message import Message, Outcome, Target
from stores import notify_prefs

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

LOG_KEEP = 100  # delivery attempts kept per player
WORDS = {
    "en": {
        "open": "Open the table",
        "open_home": "Open marketfold",
        "why": "You get this because you asked marketfold to e-mail you about it.",
        "unsubscribe": "Stop these e-mails",
        "verify_subject": "Confirm your e-mail address for marketfold",
        "verify_body": "Open this link to receive marketfold notifications at {address}:",
        "digest_subject": "Your marketfold day: {count} unread",
        "digest_body": "What happened while you were away:",
    },
    "es": {
        "open": "Abrir la mesa",
        "open_home": "Abrir marketfold",
        "why": "Recibes esto porque pediste a marketfold que te avisara por correo.",
        "unsubscribe": "Dejar de recibir estos correos",
        "verify_subject": "Confirma tu dirección de correo para marketfold",
        "verify_body": "Abre este enlace para recibir avisos de marketfold en {address}:",
        "digest_subject": "Tu día en marketfold: {count} sin leer",
        "digest_body": "Lo que pasó mientras no estabas:",
    },
}


def public_url(boot: Bootstrap, path: str) -> str:
    return str(boot.config["PUBLIC_URL"]).rstrip("/") + path


def target_id(address: str) -> str:
    return hashlib.sha256(address.strip().lower().encode()).hexdigest()[:16]


def _domain(boot: Bootstrap) -> str:
    sender = parseaddr(str(boot.config["SMTP_FROM"]))[1]
    return sender.rpartition("@")[2] or "marketfold.invalid"


@functools.lru_cache(maxsize=4)
def _tls(cafile: str | None) -> ssl.SSLContext:
    """The TLS settings of the connections to the relay, built once per CA file: loading
    the system's certificates took about a fifth of a worker's CPU when it was built for
    every mail (bench/jobs/notify.py, docs/notifications.md "Figures"). A changed file is read
    again when the worker restarts."""
    return ssl.create_default_context(cafile=cafile)


def deliver(boot: Bootstrap, mail: EmailMessage) -> tuple[Outcome, str]:
    """Hand one message to the configured SMTP server: SENT once it accepted it, RETRY
    on a passing failure (no connection, a 4xx answer), REFUSED on a permanent one."""
    url = urlsplit(str(boot.config["SMTP_URL"]))
    query = parse_qs(url.query)
    secure = url.scheme == "smtps"
    starttls = boot.config["SMTP_STARTTLS"] or query.get("starttls", ["0"])[0] in ("1", "true")
    port = url.port or (465 if secure else 25)
    timeout = float(boot.config["SMTP_TIMEOUT_S"])
    tls = _tls(boot.config.get("SMTP_CA_FILE") or None) if secure or starttls else None
    relay = smtp.Relay(
        host=url.hostname or "127.0.0.1",
        port=port,
        secure=secure,
        starttls=starttls,
        user=url.username,
        password=url.password or "",
        timeout=timeout,
        tls=tls,
    )
    try:
        smtp.send(relay, mail)
    except smtplib.SMTPAuthenticationError as e:  # the operator's settings: kept for later
        return Outcome.RETRY, f"SMTP login refused: {e.smtp_code}"
    except smtplib.SMTPRecipientsRefused as e:
        code = next(iter(e.recipients.values()))[0] if e.recipients else 550
        return (
            Outcome.RETRY if 400 <= code < 500 else Outcome.REFUSED
        ), f"recipient refused: {code}"
    except smtplib.SMTPResponseException as e:
        return (Outcome.RETRY if 400 <= e.smtp_code < 500 else Outcome.REFUSED), (
            f"SMTP {e.smtp_code}"
        )
    except (TimeoutError, smtplib.SMTPException, OSError) as e:
        return Outcome.RETRY, f"{type(e).__name__}: {e}"[:200]
    return Outcome.SENT, "accepted"


def _mail(boot: Bootstrap, to: str, subject: str, text: str, markup: str, mid: str) -> EmailMessage:
    mail = EmailMessage()
    mail["From"] = str(boot.config["SMTP_FROM"])
    mail["To"] = to
    mail["Subject"] = subject
    mail["Date"] = formatdate(localtime=False)
    mail["Message-ID"] = f"<{mid}@{_domain(boot)}>"
    mail["Auto-Submitted"] = "auto-generated"  # RFC 3834: no vacation replies
    mail.set_content(text)
    mail.add_alternative(markup, subtype="html")
    return mail


def _page(title: str, paragraphs: list[str], link: tuple[str, str], foot: str = "") -> str:
    """A small HTML body: every value escaped, no script, no remote resource."""
    parts = [f"<p>{html.escape(p)}</p>" for p in paragraphs]
    href, label = link
    return (
        f"<!doctype html><html><body><h1>{html.escape(title)}</h1>{''.join(parts)}"
        f'<p><a href="{html.escape(href, quote=True)}">{html.escape(label)}</a></p>'
        f"{foot}</body></html>"
    )


def unsubscribe_url(boot: Bootstrap, player: str, type_: str) -> str:
    token = signing.sign(boot, "unsubscribe", {"p": player, "t": type_, "c": "email"})
    return public_url(boot, f"/v1/notifications/unsubscribe?token={token}")


def render(boot: Bootstrap, target: Target, message: Message) -> EmailMessage:
    """The e-mail of one notification for one address."""
    w = WORDS.get(message.lang, WORDS["en"])
    leave = unsubscribe_url(boot, message.player, message.type)
    label = w["open"] if "/#/g/" in message.url else w["open_home"]
    text = f"{message.body}\n\n{label}: {message.url}\n\n-- \n"
    text += f"{w['why']}\n{w['unsubscribe']}: {leave}\n"
    foot = (
        f"<hr><p><small>{html.escape(w['why'])} "
        f'<a href="{html.escape(leave, quote=True)}">{html.escape(w["unsubscribe"])}</a>'
        "</small></p>"
    )
    markup = _page(message.title, [message.body], (message.url, label), foot)
    mail = _mail(
        boot, target.spec["address"], message.title, text, markup, f"{message.id}.{target.id}"
    )
    mail["List-Unsubscribe"] = f"<{leave}>"
    mail["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    mail["X-Marketfold-Notification"] = message.id
    mail["X-Marketfold-Type"] = message.type
    return mail


class EmailChannel:
    """The e-mail channel (service.notify.message.Channel)."""

    name = "email"

    def read(self, pipe: Any, player_id: str) -> None:
        notify_prefs.read_settings(pipe, player_id)  # the address is one of the settings

    def targets(
        self, boot: Bootstrap, player_id: str, type_: str, stored: Any = None
    ) -> list[Target]:
        if not boot.config.get("SMTP_URL"):
            return []
        if stored is None:
            settings = prefs.load(boot, player_id)
        else:
            settings = prefs.parse(notify_prefs.settings_from(stored))
        email = settings.get("email") or {}
        if not email.get("verified"):
            return []
        address = email["address"]
        return [Target("email", target_id(address), {"address": address})]

    def send(self, boot: Bootstrap, target: Target, message: Message) -> tuple[Outcome, str]:
        return deliver(boot, render(boot, target, message))

    def record(
        self,
        boot: Bootstrap,
        target: Target,
        message: Message,
        outcome: Outcome,
        detail: str,
        attempt: int,
        final: bool,
    ) -> None:
        log(boot, message.player, "email", message.id, outcome, detail, attempt)


def log(
    boot: Bootstrap,
    player: str,
    channel: str,
    note_id: str,
    outcome: Outcome,
    detail: str,
    attempt: int,
) -> None:
    """Keep one delivery attempt in the player's short delivery log."""
    entry = {
        "channel": channel,
        "notification": note_id,
        "outcome": str(outcome),
        "detail": detail,
        "attempt": attempt,
    }
    boot.notify_outbox.log(player, entry, LOG_KEEP)


def send_verification(boot: Bootstrap, player_id: str) -> tuple[Outcome, str]:
    """Mail the player's unverified address a link that verifies it."""
    settings = prefs.load(boot, player_id)
    email = settings.get("email") or {}
    if not email or email.get("verified") or not boot.config.get("SMTP_URL"):
        return Outcome.REFUSED, "nothing to verify"
    w = WORDS.get(settings["lang"], WORDS["en"])
    token = signing.sign(boot, "verify", {"p": player_id, "a": email["address"]})
    link = public_url(boot, f"/v1/notifications/verify?token={token}")
    said = w["verify_body"].format(address=email["address"])
    markup = _page(w["verify_subject"], [said], (link, link))
    mid = f"verify.{target_id(email['address'])}.{token[-12:]}"
    mail = _mail(boot, email["address"], w["verify_subject"], f"{said}\n\n{link}\n", markup, mid)
    return deliver(boot, mail)


def verify(boot: Bootstrap, token: str) -> tuple[str, str] | None:
    """Mark the address a verification token names verified, if it is still the player's
    address; return (the player's id, the address), or None (a bad, expired or outdated
    link)."""
    data = signing.unsign(boot, "verify", token)
    if not isinstance(data, dict):
        return None
    settings = prefs.load(boot, data.get("p", ""))
    email = settings.get("email") or {}
    if email.get("address") != data.get("a"):
        return None
    settings["email"] = {"address": email["address"], "verified": True}
    prefs.save(boot, data["p"], settings)
    return data["p"], email["address"]


def send_digest(
    boot: Bootstrap, player_id: str, items: list[dict[str, Any]]
) -> tuple[Outcome, str]:
    """Mail the daily digest of unread notifications (`items`: title, body, url)."""
    settings = prefs.load(boot, player_id)
    email = settings.get("email") or {}
    if not email.get("verified") or not boot.config.get("SMTP_URL") or not items:
        return Outcome.REFUSED, "no digest"
    w = WORDS.get(settings["lang"], WORDS["en"])
    subject = w["digest_subject"].format(count=len(items))
    lines = [f"- {i['title']}: {i['body']} {i['url']}" for i in items]
    text = w["digest_body"] + "\n\n" + "\n".join(lines) + "\n"
    markup = _page(
        subject,
        [w["digest_body"], *(f"{i['title']}: {i['body']}" for i in items)],
        (public_url(boot, "/"), w["open_home"]),
    )
    mid = f"digest.{player_id}.{items[0]['id']}"
    return deliver(boot, _mail(boot, email["address"], subject, text, markup, mid))

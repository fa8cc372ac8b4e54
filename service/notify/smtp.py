"""The connection to the SMTP relay, kept open per notifier thread and used for every mail
that thread sends (as mail servers' clients do), instead of a new connection, greeting,
TLS handshake and login per message. A connection idle longer than IDLE_S or used
PER_CONNECTION times is closed first; one that fails is closed, and a mail that failed on a
reused connection is tried once more on a fresh one (the relay may have dropped it)."""

from __future__ import annotations

import smtplib
import ssl
import threading
import time
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import unquote

IDLE_S = 20.0  # below common relays' idle timeouts (Postfix: 300 s, many providers: 60 s)
PER_CONNECTION = 100  # mails per connection, below relays' usual limits

_local = threading.local()


@dataclass(frozen=True)
class Relay:
    host: str
    port: int
    secure: bool  # TLS from the first byte (smtps)
    starttls: bool
    user: str | None
    password: str
    timeout: float
    tls: ssl.SSLContext | None


def send(relay: Relay, mail: EmailMessage) -> None:
    """Hand `mail` to the relay (smtplib's exceptions tell why it was not taken)."""
    reused = _open(relay)
    try:
        _send(mail)
    except (smtplib.SMTPServerDisconnected, ConnectionError):
        close()
        if not reused:
            raise
        _open(relay)  # the relay dropped an idle connection: once more on a fresh one
        _send(mail)


def _send(mail: EmailMessage) -> None:
    try:
        _local.smtp.send_message(mail)
    except smtplib.SMTPRecipientsRefused:
        raise  # smtplib reset the transaction: the connection stays usable
    except Exception:
        close()
        raise
    _local.used, _local.last = _local.used + 1, time.monotonic()


def _open(relay: Relay) -> bool:
    """Make sure this thread holds a usable connection to `relay`; True if it is reused."""
    held = getattr(_local, "smtp", None)
    if held is not None:
        fresh = time.monotonic() - _local.last < IDLE_S and _local.used < PER_CONNECTION
        if _local.relay == relay and fresh:
            return True
        close()
    smtp = (
        smtplib.SMTP_SSL(relay.host, relay.port, timeout=relay.timeout, context=relay.tls)
        if relay.secure
        else smtplib.SMTP(relay.host, relay.port, timeout=relay.timeout)
    )
    try:
        if relay.starttls and not relay.secure:
            smtp.starttls(context=relay.tls)
        if relay.user:
            smtp.login(unquote(relay.user), unquote(relay.password))
    except Exception:
        smtp.close()
        raise
    _local.smtp, _local.relay, _local.used, _local.last = smtp, relay, 0, time.monotonic()
    return False


def close() -> None:
    """Close this thread's connection, if it holds one (politely, if the relay listens)."""
    smtp, _local.smtp = getattr(_local, "smtp", None), None
    if smtp is None:
        return
    try:
        smtp.quit()
    except (smtplib.SMTPException, OSError):
        smtp.close()

"""The outbound channels' counterparts for bench/jobs/notify.py, on loopback: an SMTP server
(aiosmtpd) and a webhook receiver that checks every request with the `standardwebhooks`
library, as a bot would. Each hands every arrival to `arrived(channel, player, note id,
time)`; the tests have their own (tests/notify/receivers.py: one receiver per test, with
answers to script), these serve many players at once, one path per player."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from aiosmtpd.controller import Controller
from standardwebhooks import Webhook, WebhookVerificationError

Arrived = Callable[[str, str, str, float], None]  # (channel, player, notification id, time)
MAIL_DOMAIN = "bench.example"


def address(player: str) -> str:
    """The e-mail address the bench gives a player (the SMTP server maps it back)."""
    return f"{player}@{MAIL_DOMAIN}"


class _Mail:
    """aiosmtpd's handler: the recipient and the notification id of each mail."""

    def __init__(self, arrived: Arrived) -> None:
        self.arrived = arrived

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        at = time.time()
        head = envelope.content.split(b"\r\n\r\n", 1)[0].decode("utf-8", "replace")
        nid = next(
            (
                line.split(":", 1)[1].strip()
                for line in head.splitlines()
                if line.lower().startswith("x-marketfold-notification:")
            ),
            "",
        )
        self.arrived("email", envelope.rcpt_tos[0].split("@", 1)[0], nid, at)
        return "250 OK"


class SmtpServer:
    """A real SMTP server on 127.0.0.1 for as long as it runs."""

    def __init__(self, arrived: Arrived, port: int) -> None:
        self.port = port
        self.controller = Controller(_Mail(arrived), hostname="127.0.0.1", port=port)

    def start(self) -> SmtpServer:
        self.controller.start()
        return self

    def stop(self) -> None:
        self.controller.stop()


class WebhookServer:
    """An HTTP server on 127.0.0.1 taking webhooks at /hooks/<player>: each request is
    verified with that player's secret (`secrets`, filled in as the webhooks are
    registered); a request that fails verification is counted, answered 401, and not
    handed on."""

    def __init__(self, arrived: Arrived) -> None:
        self.secrets: dict[str, str] = {}
        self.rejected = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):  # noqa: N802 (http.server's name)
                at = time.time()
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                player = self.path.rsplit("/", 1)[-1]
                status = outer.check(player, dict(self.headers.items()), body, at, arrived)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"

    def url(self, player: str) -> str:
        return f"{self.origin}/hooks/{player}"

    def check(self, player: str, headers: dict, body: bytes, at: float, arrived: Arrived) -> int:
        secret = self.secrets.get(player)
        try:
            if secret is None:
                raise WebhookVerificationError("no webhook registered for this path")
            payload = Webhook(secret).verify(body, headers)
        except (WebhookVerificationError, ValueError):
            self.rejected += 1
            return 401
        arrived("webhook", player, payload["id"], at)
        return 204

    def start(self) -> WebhookServer:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

"""Real counterparts of the outbound channels, on loopback: a webhook receiver that checks
every request with the `standardwebhooks` library (as a bot would), and (tests/notify/
push_service.py) a push service endpoint."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from standardwebhooks import Webhook, WebhookVerificationError

from tests.support.waiting import wait_for


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    payload: Any  # what Webhook.verify returned (the parsed JSON), None if it failed
    error: str | None  # why verification failed


@dataclass
class WebhookReceiver:
    """Answers each POST with the next status of `plan` (then `status`), after `delay` s;
    keeps every request and its verification by `secret`."""

    secret: str | None = None
    status: int = 204
    plan: list[int] = field(default_factory=list)
    delay: float = 0.0
    received: list[Received] = field(default_factory=list)
    url: str = ""

    def handle(self, headers: dict[str, str], body: bytes) -> int:
        try:
            if not self.secret:
                raise WebhookVerificationError("the receiver was given no secret")
            payload = Webhook(self.secret).verify(body, headers)
            error = None
        except (WebhookVerificationError, ValueError) as e:
            payload, error = None, f"{type(e).__name__}: {e}"
        self.received.append(Received(headers, body, payload, error))
        if self.delay:
            time.sleep(self.delay)
        return self.plan.pop(0) if self.plan else self.status

    def wait_for(self, n: int, timeout: float = 20.0) -> list[Received]:
        """Wait until `n` requests arrived; return them."""
        wait_for(
            lambda: len(self.received) >= n,
            timeout,
            every=0.05,
            what=lambda: f"{n} requests ({len(self.received)} arrived)",
        )
        return self.received[:n]


@contextmanager
def loopback(answer: Callable[[str, dict[str, str], bytes], tuple[int, dict[str, str]]]):
    """An HTTP server on 127.0.0.1 for the block, answering each POST with
    `answer(path, headers, body)` -> (status, headers); yields its origin."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            status, headers = answer(self.path, dict(self.headers.items()), body)
            try:
                self.send_response(status)
                for name, value in {**headers, "Content-Length": "0"}.items():
                    self.send_header(name, value)
                self.end_headers()
            except OSError:
                pass  # the sender gave up waiting

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def webhook_receiver(**options: Any) -> Iterator[WebhookReceiver]:
    """A WebhookReceiver listening on 127.0.0.1 for the block."""
    receiver = WebhookReceiver(**options)
    with loopback(lambda path, headers, body: (receiver.handle(headers, body), {})) as origin:
        receiver.url = f"{origin}/hooks/marketfold"
        yield receiver

"""A real SMTP server on loopback (aiosmtpd) that keeps every message it accepts, parsed."""

from __future__ import annotations

import asyncio
import email
import threading
import time
from email import policy
from email.message import EmailMessage

from aiosmtpd.controller import Controller

from cli.embedded import free_port


class Sink:
    """aiosmtpd's handler: each accepted message parsed (`email`, default policy), with
    the time it arrived."""

    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay  # seconds each message takes to accept (a slow server)
        self.messages: list[EmailMessage] = []
        self.arrived: list[float] = []
        self.peers: list[tuple[str, int]] = []  # each message's client address: its connection
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        if self.delay:
            await asyncio.sleep(self.delay)
        parsed = email.message_from_bytes(envelope.content, policy=policy.default)
        with self.lock:
            self.messages.append(parsed)
            self.arrived.append(time.time())
            self.peers.append(tuple(session.peer))
        return "250 OK"

    def wait(self, count: int, timeout: float = 30.0, where=lambda m: True) -> list[EmailMessage]:
        """Return the messages `where` accepts once there are `count` of them (or fail)."""
        ends = time.monotonic() + timeout
        while time.monotonic() < ends:
            with self.lock:
                found = [m for m in self.messages if where(m)]
            if len(found) >= count:
                return found
            time.sleep(0.05)
        raise AssertionError(f"{len(found)} of {count} messages arrived in {timeout} s")

    def to(self, address: str) -> list[EmailMessage]:
        with self.lock:
            return [m for m in self.messages if m["To"] == address]


def start(delay: float = 0.0, port: int | None = None) -> tuple[Controller, Sink, str]:
    """Start a server (on `port`, or a free one); return it (stop it after), its sink and
    its `smtp://` URL."""
    sink, port = Sink(delay), port or free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    return controller, sink, f"smtp://127.0.0.1:{port}"


def text_of(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()


def html_of(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("html",)).get_content()

"""What a channel is handed to deliver, and what it answers.

A notification is created once (in the inbox) and delivered at least once per channel and
target; its `id` is the same on every channel and every retry, so a second delivery is
recognisable (the e-mail's Message-ID, the webhook's `webhook-id`, the push's topic).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol


@dataclass(frozen=True)
class Message:
    """One notification, rendered for one player."""

    id: str  # stable: the same for every channel, target and retry
    player: str  # the recipient's player id
    type: str  # a notification type (docs/notifications.md, openapi.yaml)
    lang: str  # "en" or "es": the language title and body are in
    title: str  # one line, plain text
    body: str  # plain text; never hidden information
    url: str  # absolute link that opens what it is about (the table, the league, home)
    at: str  # ISO time the notification was created
    data: dict[str, Any] = field(default_factory=dict)  # the note as JSON (what a webhook sends)


class Outcome(StrEnum):
    """What one delivery attempt did."""

    SENT = "sent"  # accepted by the other side
    RETRY = "retry"  # a passing failure: try again later, with backoff
    GONE = "gone"  # the target no longer exists (push 404/410): disable it, do not retry
    REFUSED = "refused"  # never to be sent (a forbidden address, a bad target): do not retry


@dataclass(frozen=True)
class Target:
    """Where one channel delivers for one player (an address, a subscription, a URL)."""

    channel: str  # "email", "push" or "webhook"
    id: str  # the target's id within the channel
    spec: dict[str, Any] = field(default_factory=dict)  # what the channel needs to send


class Channel(Protocol):
    """A way of reaching a player. The dispatcher calls `targets` to know where a message
    of a type goes, `send` once per attempt, and `record` after each attempt."""

    name: str

    def read(self, pipe: Any, player_id: str) -> None:
        """Queue on `pipe` the one read `targets` needs of the player's targets."""

    def targets(self, boot: Any, player_id: str, type_: str, stored: Any = None) -> list[Target]:
        """Return the player's enabled targets on this channel that want `type_` (from
        `stored`, what `read` read, if given; else read now)."""

    def send(self, boot: Any, target: Target, message: Message) -> tuple[Outcome, str]:
        """Try one delivery; return the outcome and a short detail for the log."""

    def record(
        self,
        boot: Any,
        target: Target,
        message: Message,
        outcome: Outcome,
        detail: str,
        attempt: int,
        final: bool,
    ) -> None:
        """Keep what the attempt did (a delivery log, a run of failures, disabling)."""

"""The event envelope, built in one place for every log (a game's, a league's, the audit's).

An envelope is `seq, type, data, actor, at, cause, visible_to`, plus a random `salt` on
a hidden event and on every event of a player's action (whose `cause` is the client's
Idempotency-Key and whose `command` is the action sent, both shown to that player only
until the game ends), so its hash cannot be searched for a small secret; `codec.seal`
then adds `prev` and `hash`. Its `data` is exactly what a reload of the stream sees.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from events import codec
from games.base import Event

Actor = int | str


def build(
    events: list[Event],
    version: int,
    actor: Actor,
    cause: str,
    at: str,
    private: int = 0,
    is_private: Callable[[Event], bool] | None = None,
) -> list[dict[str, Any]]:
    """Return the envelopes of `events` appended after `version`.

    An event `is_private` says is private (seen by its parties only, nothing of it by
    anyone else: docs/architecture.md, "Private steps") goes to the game's private log:
    its envelope keeps the public `seq` it follows (no public number of its own) and
    carries `private`, its number in that log, counted on from `private`."""
    out = []
    for event in events:
        hidden = event.visible_to != "all"
        env: dict[str, Any] = {"seq": version}
        if hidden and is_private is not None and is_private(event):
            private += 1
            env["private"] = private
        else:
            version += 1
            env["seq"] = version
        env.update(
            {
                "type": event.type,
                "data": codec.normal(event.data),
                "actor": actor,
                "at": at,
                "cause": cause,
                "visible_to": list(event.visible_to) if hidden else "all",
            }
        )
        if hidden or isinstance(actor, int):
            env["salt"] = secrets.token_hex(16)
        out.append(env)
    return out

"""One frame of an open event stream (server-sent events): what every stream sends, the
game's (service.game_stream), a party's private steps (service.private_stream) and the
feeds'."""

from __future__ import annotations

from typing import NamedTuple


class Frame(NamedTuple):
    id: str | None  # None: the frame does not move Last-Event-ID
    event: str
    data: str  # JSON on one line

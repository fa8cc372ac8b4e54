"""What a player's feed sends its caller (api.sse serves it): one `turns` frame, the
caller's open turns in every game (as `GET /v1/players/me/turns`), then its notes."""

from __future__ import annotations

from typing import TYPE_CHECKING

import orjson

from events import keys
from service import inbox
from service.frames import Frame, json_text

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


class Feed:
    """One player's feed of notes."""

    def __init__(self, boot: Bootstrap, player_id: str, after: str | None):
        self.boot, self.player_id = boot, player_id
        self.after = after if after is not None else inbox.last_id(boot, player_id)
        self.key = keys.player_feed(player_id)

    def first(self) -> Frame:
        """The frame every feed starts with: the caller's open turns in every game."""
        turns = inbox.turns(self.boot, self.player_id)
        data = {"type": "turns", "player": self.player_id, "turns": turns}
        return Frame(None, "turns", json_text(data))

    def entry(self, entry_id: str, fields: dict[bytes, bytes]) -> tuple[list[Frame], bool]:
        note = fields[b"n"].decode()
        return [Frame(entry_id, orjson.loads(note)["type"], note)], False

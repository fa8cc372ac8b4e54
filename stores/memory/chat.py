"""The table chat in memory: the twin of stores.chat.RedisChat (tests/stores/
test_chat_contract.py runs both). Ids are `<ms>-<n>` from its clock (`clock`, seconds,
time.time unless given), increasing as a stream's are; windows end by the same clock."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from events import keys
from stores.chat import Message, RateLimited
from stores.memory.stream_ids import StreamIds, named, order


class MemoryChat:
    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.ids = StreamIds(lambda: self.clock())
        self.kept: dict[str, list[Message]] = {}
        self.windows: dict[tuple[str, str], tuple[int, int]] = {}  # count, ends (ms)
        self.hid: dict[str, dict[str, dict[str, Any]]] = {}

    def post(
        self,
        game_id: str,
        player_id: str,
        message: dict[str, Any],
        rate: tuple[int, int],
        keep: int,
    ) -> str:
        now = int(self.clock() * 1000)
        count, ends = self.windows.get((game_id, player_id), (0, 0))
        if ends <= now:
            count, ends = 0, now + rate[1]
        self.windows[(game_id, player_id)] = (count + 1, ends)
        if count + 1 > rate[0]:
            raise RateLimited(ends - now)
        ident = self.ids.next()
        kept = self.kept.setdefault(game_id, [])
        kept.append((ident, dict(message)))
        del kept[:-keep]
        return ident

    def after(self, game_id: str, after: str, count: int) -> list[Message]:
        since = order(after)
        return [m for m in self.kept.get(game_id, []) if order(m[0]) > since][:count]

    def messages(self, game_id: str) -> list[Message]:
        return list(self.kept.get(game_id, []))

    def message(self, game_id: str, message_id: str) -> dict[str, Any] | None:
        return next((m for i, m in self.kept.get(game_id, []) if named(i, message_id)), None)

    def last_id(self, game_id: str) -> str:
        kept = self.kept.get(game_id)
        return kept[-1][0] if kept else "0-0"

    def stream(self, key: str) -> list[tuple[bytes, dict[bytes, bytes]]]:
        """A game's chat as the Redis stream `key` holds it (the message as field `m`),
        for the stream hub's twin (stores.memory.hub)."""
        kept = next((m for g, m in self.kept.items() if keys.game_chat(g) == key), [])
        return [(i.encode(), {b"m": json.dumps(m).encode()}) for i, m in kept]

    def hide(self, game_id: str, message_id: str, said: dict[str, Any]) -> None:
        self.hid.setdefault(game_id, {})[message_id] = dict(said)

    def hidden(self, game_id: str) -> dict[str, dict[str, Any]]:
        return {k: dict(v) for k, v in self.hid.get(game_id, {}).items()}

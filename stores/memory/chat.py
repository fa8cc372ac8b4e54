"""The table chat in memory: the twin of stores.chat.RedisChat (tests/stores/
test_chat_contract.py runs both). Ids are `<ms>-<n>` from its clock (`clock`, seconds,
time.time unless given), increasing as a stream's are; windows end by the same clock."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from stores.chat import Message, RateLimited


def _order(message_id: str) -> tuple[int, int]:
    ms, _, n = message_id.partition("-")
    return int(ms), int(n or 0)


class MemoryChat:
    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.kept: dict[str, list[Message]] = {}
        self.windows: dict[tuple[str, str], tuple[int, int]] = {}  # count, ends (ms)
        self.hid: dict[str, dict[str, dict[str, Any]]] = {}
        self.last: tuple[int, int] = (0, 0)

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
        self.last = (now, 0) if now > self.last[0] else (self.last[0], self.last[1] + 1)
        ident = f"{self.last[0]}-{self.last[1]}"
        kept = self.kept.setdefault(game_id, [])
        kept.append((ident, dict(message)))
        del kept[:-keep]
        return ident

    def after(self, game_id: str, after: str, count: int) -> list[Message]:
        since = _order(after)
        return [m for m in self.kept.get(game_id, []) if _order(m[0]) > since][:count]

    def messages(self, game_id: str) -> list[Message]:
        return list(self.kept.get(game_id, []))

    def message(self, game_id: str, message_id: str) -> dict[str, Any] | None:
        found = (m for i, m in self.kept.get(game_id, []) if _order(i) == _order(message_id))
        return next(found, None) if "-" in message_id else self._first_of_ms(game_id, message_id)

    def _first_of_ms(self, game_id: str, ms: str) -> dict[str, Any] | None:
        # an id without its `-<n>` names every message of its millisecond, as in a stream
        return next((m for i, m in self.kept.get(game_id, []) if _order(i)[0] == int(ms)), None)

    def last_id(self, game_id: str) -> str:
        kept = self.kept.get(game_id)
        return kept[-1][0] if kept else "0-0"

    def hide(self, game_id: str, message_id: str, said: dict[str, Any]) -> None:
        self.hid.setdefault(game_id, {})[message_id] = dict(said)

    def hidden(self, game_id: str) -> dict[str, dict[str, Any]]:
        return {k: dict(v) for k, v in self.hid.get(game_id, {}).items()}

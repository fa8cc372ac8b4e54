"""The table chat's port (service.chat, service.moderation): each game's messages in
the order posted (a stream beside the game's log, `mf:{g:<id>}:chat`, ids
`<ms>-<n>`), each player's posts counted per window, and the messages operators hid
({by, reason, at}). A post is counted and kept atomically (one script on Redis)."""

from __future__ import annotations

import json
from typing import Any, Protocol

import redis

from events import keys, scripts

Message = tuple[str, dict[str, Any]]  # (id, the message as posted)


class RateLimited(Exception):
    """A post over the player's count for the window; `retry_ms` until it ends."""

    def __init__(self, retry_ms: int):
        super().__init__(f"retry in {retry_ms} ms")
        self.retry_ms = retry_ms


class ChatStore(Protocol):
    def post(
        self,
        game_id: str,
        player_id: str,
        message: dict[str, Any],
        rate: tuple[int, int],
        keep: int,
    ) -> str:
        """Keep a message (the newest `keep` or so are kept) and return its id, unless
        the player posted rate[0] already in the window of rate[1] ms opened by the
        first of them: then raise RateLimited."""

    def after(self, game_id: str, after: str, count: int) -> list[Message]:
        """Up to `count` messages with an id above `after`, oldest first."""

    def messages(self, game_id: str) -> list[Message]:
        """Every kept message, oldest first."""

    def message(self, game_id: str, message_id: str) -> dict[str, Any] | None:
        """One message, or None if the game has none with that id."""

    def last_id(self, game_id: str) -> str:
        """The id of the newest message ("0-0" when none)."""

    def hide(self, game_id: str, message_id: str, said: dict[str, Any]) -> None:
        """Mark a message hidden, with who hid it and why (`said`)."""

    def hidden(self, game_id: str) -> dict[str, dict[str, Any]]:
        """The game's hidden messages: {message id: said}."""


def _decoded(entries: list[tuple[bytes, dict[bytes, bytes]]]) -> list[Message]:
    return [(i.decode(), json.loads(f[b"m"])) for i, f in entries]


class RedisChat:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def post(
        self,
        game_id: str,
        player_id: str,
        message: dict[str, Any],
        rate: tuple[int, int],
        keep: int,
    ) -> str:
        script = scripts.registered(self.redis, scripts.CHAT_POST)
        ok, value = script(
            keys=[keys.game_chat(game_id), keys.game_chat_rate(game_id, player_id)],
            args=[json.dumps(message), rate[0], rate[1], keep],
        )
        if not ok:
            raise RateLimited(int(value))
        return value.decode()

    def after(self, game_id: str, after: str, count: int) -> list[Message]:
        return _decoded(self.redis.xrange(keys.game_chat(game_id), f"({after}", "+", count=count))

    def messages(self, game_id: str) -> list[Message]:
        return _decoded(self.redis.xrange(keys.game_chat(game_id)))

    def message(self, game_id: str, message_id: str) -> dict[str, Any] | None:
        found = self.redis.xrange(keys.game_chat(game_id), message_id, message_id)
        return json.loads(found[0][1][b"m"]) if found else None

    def last_id(self, game_id: str) -> str:
        newest = self.redis.xrevrange(keys.game_chat(game_id), count=1)
        return newest[0][0].decode() if newest else "0-0"

    def hide(self, game_id: str, message_id: str, said: dict[str, Any]) -> None:
        self.redis.hset(keys.game_chat_hidden(game_id), message_id, json.dumps(said))

    def hidden(self, game_id: str) -> dict[str, dict[str, Any]]:
        raw = self.redis.hgetall(keys.game_chat_hidden(game_id))
        return {k.decode(): json.loads(v) for k, v in raw.items()}

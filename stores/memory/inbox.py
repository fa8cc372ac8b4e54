"""A player's inbox in memory (stores.inbox.RedisInbox's twin): the feeds, read marks
and games index that the appends' follow-up writes and `write` make (stores.memory.
following), with feed ids made as Redis makes a stream's (stores.memory.stream_ids)."""

from __future__ import annotations

import json
from typing import Any

from events import keys
from events.recording import Writes
from stores.inbox import Note, find
from stores.memory.following import Command, Following
from stores.memory.stream_ids import StreamIds, order


class MemoryInbox(Following):
    def __init__(self, follow: list[Command] | None = None) -> None:
        super().__init__(follow)
        self._feeds: dict[str, list[tuple[str, str]]] = {}  # key -> [(feed id, JSON)]
        self._ids: dict[str, StreamIds] = {}
        self._games: dict[str, dict[str, float]] = {}  # key -> game id -> when seated
        self._upto: dict[str, str] = {}
        self._read: dict[str, set[str]] = {}

    def apply(self, command: Command) -> None:
        name, key = command[0], command[1]
        if name == "XADD" and key.endswith(":feed"):
            star = command.index("*")
            cap = int(command[4]) if command[2] == "MAXLEN" else None
            fields = dict(zip(command[star + 1 :: 2], command[star + 2 :: 2]))
            self._add(key, fields["n"], cap)
        elif name == "ZADD" and key.endswith(":games"):
            self._games.setdefault(key, {})[command[3]] = float(command[2])
        elif name == "ZREM" and key.endswith(":games"):
            for member in command[2:]:
                self._games.get(key, {}).pop(member, None)

    def _add(self, key: str, text: str, cap: int | None) -> None:
        feed = self._feeds.setdefault(key, [])
        feed.append((self._ids.setdefault(key, StreamIds()).next(), text))
        if cap is not None:
            del feed[: max(0, len(feed) - cap)]

    def _feed(self, player_id: str) -> list[Note]:
        self.sync()
        return [(i, json.loads(t)) for i, t in self._feeds.get(keys.player_feed(player_id), [])]

    def stream(self, key: str) -> list[tuple[bytes, dict[bytes, bytes]]]:
        """A player's feed as the Redis stream `key` holds it (the note as field `n`), for
        the stream hub's twin (stores.memory.hub)."""
        self.sync()
        return [(i.encode(), {b"n": t.encode()}) for i, t in self._feeds.get(key, [])]

    def write(self, notes: Writes) -> None:
        self.follow.extend(notes.commands)  # written as an append's would be

    def newest(
        self, player_id: str, before: str | None = None, count: int | None = None
    ) -> list[Note]:
        older = [n for n in self._feed(player_id) if before is None or order(n[0]) < order(before)]
        return older[::-1][:count]

    def since(self, player_id: str, after: str = "0-0") -> list[Note]:
        return [n for n in self._feed(player_id) if order(n[0]) > order(after)]

    def note(self, player_id: str, note_id: str) -> dict[str, Any] | None:
        return find(self._feed(player_id), note_id)

    def last_id(self, player_id: str) -> str:
        feed = self._feed(player_id)
        return feed[-1][0] if feed else "0-0"

    def marks(self, player_id: str) -> tuple[str, set[str]]:
        return self._upto.get(player_id, "0-0"), set(self._read.get(player_id, ()))

    def mark_read(self, player_id: str, note_id: str) -> None:
        self._read.setdefault(player_id, set()).add(note_id)

    def mark_all_read(self, player_id: str, upto: str | None) -> None:
        if upto is not None:
            self._upto[player_id] = upto
        self._read.pop(player_id, None)

    def games(self, player_id: str) -> list[str]:
        self.sync()
        held = self._games.get(keys.player_games(player_id), {})
        return [g for g, _ in sorted(held.items(), key=lambda kv: (kv[1], kv[0]))]

    def drop_game(self, player_id: str, game_id: str) -> None:
        self.sync()
        self._games.get(keys.player_games(player_id), {}).pop(game_id, None)

"""A player's inbox (service.inbox, service.notify.inbox): the notes of their feed, which
are their notifications, the marks of what they read, and the index of their unfinished
games.

Notes are written with the appends that cause them, in the append's follow-up writes
(events.recording.Writes, staged by service.notify.inbox.stage); `write` sends such
writes made outside an append (a reminder, a rematch's invitations), the note and its
planning in one transaction on one Redis. A note is read back as (feed id, note), the
feed id being the stream entry's (`<ms>-<n>`, newer ones greater).

Keys (events.keys, events.notify_keys): `mf:player:<id>:feed` (a capped stream, field `n`
the note's JSON), `mf:player:<id>:notes:seen` (the feed id up to which all is read),
`mf:player:<id>:notes:read` (a set of ids read one by one), `mf:player:<id>:games` (a
sorted set of game ids, by when the seat was taken).
"""

from __future__ import annotations

import json
from typing import Any, Protocol

import redis

from events import keys, notify_keys
from events.recording import Writes

SCAN = 100  # feed entries read at a time when looking for a note

Note = tuple[str, dict[str, Any]]  # (feed id, the note)


class InboxStore(Protocol):
    def write(self, notes: Writes) -> None:
        """Write notes staged outside an append, and their planning, together."""

    def newest(
        self, player_id: str, before: str | None = None, count: int | None = None
    ) -> list[Note]:
        """Up to `count` (None: all) of the player's notes older than feed id `before`
        (None: from the newest), newest first."""

    def since(self, player_id: str, after: str = "0-0") -> list[Note]:
        """The player's notes newer than feed id `after`, oldest first."""

    def note(self, player_id: str, note_id: str) -> dict[str, Any] | None:
        """The note of id `note_id` while the feed keeps it, else None."""

    def last_id(self, player_id: str) -> str:
        """The feed id of the player's newest note ("0-0": none)."""

    def marks(self, player_id: str) -> tuple[str, set[str]]:
        """What the player read: every note up to a feed id ("0-0": none), and the ids of
        those read one by one after it."""

    def mark_read(self, player_id: str, note_id: str) -> None:
        """Mark one note read."""

    def mark_all_read(self, player_id: str, upto: str | None) -> None:
        """Mark every note up to feed id `upto` read (None: keep the mark) and forget
        those read one by one."""

    def games(self, player_id: str) -> list[str]:
        """The games the player sits in that are not over, oldest seat first."""

    def drop_game(self, player_id: str, game_id: str) -> None:
        """Take a game off the player's games (a removal the append missed)."""


def entry(eid: Any, fields: dict[Any, Any]) -> Note:
    """A feed entry as XRANGE answers it, as (feed id, note)."""
    text = fields.get(b"n", fields.get("n"))
    return (eid.decode() if isinstance(eid, bytes) else eid), json.loads(text)


def find(notes: list[Note], note_id: str) -> dict[str, Any] | None:
    """The note of id `note_id` among `notes`, or None."""
    return next((n for _, n in notes if n.get("id") == note_id), None)


def read_marks(seen: bytes | None, read: set[bytes]) -> tuple[str, set[str]]:
    """The marks as GET and SMEMBERS answer them."""
    return (seen.decode() if seen else "0-0"), {m.decode() for m in read}


class RedisInbox:
    def __init__(self, client: redis.Redis, one_redis: bool = True) -> None:
        """`one_redis`: the client is not a cluster's (a note and its planning are then
        written in one MULTI; a cluster keeps them on different masters)."""
        self.redis, self.one_redis = client, one_redis

    def write(self, notes: Writes) -> None:
        pipe = self.redis.pipeline(transaction=self.one_redis)
        for command in notes.commands:
            pipe.execute_command(*command)
        pipe.execute()

    def newest(
        self, player_id: str, before: str | None = None, count: int | None = None
    ) -> list[Note]:
        if before == "0-0":  # nothing is older
            return []
        top = f"({before}" if before else "+"
        got = self.redis.xrevrange(keys.player_feed(player_id), top, "-", count=count)
        return [entry(eid, fields) for eid, fields in got]

    def since(self, player_id: str, after: str = "0-0") -> list[Note]:
        low = f"({after}" if after != "0-0" else "-"
        return [entry(e, f) for e, f in self.redis.xrange(keys.player_feed(player_id), low)]

    def note(self, player_id: str, note_id: str) -> dict[str, Any] | None:
        before = None  # newest first: a note is looked for soon after it was written
        while True:
            got = self.newest(player_id, before, SCAN)
            if (found := find(got, note_id)) is not None or len(got) < SCAN:
                return found
            before = got[-1][0]

    def last_id(self, player_id: str) -> str:
        newest = self.redis.xrevrange(keys.player_feed(player_id), count=1)
        return newest[0][0].decode() if newest else "0-0"

    def marks(self, player_id: str) -> tuple[str, set[str]]:
        pipe = self.redis.pipeline(transaction=False)
        pipe.get(notify_keys.player_notes_seen(player_id))
        pipe.smembers(notify_keys.player_notes_read(player_id))
        return read_marks(*pipe.execute())

    def mark_read(self, player_id: str, note_id: str) -> None:
        self.redis.sadd(notify_keys.player_notes_read(player_id), note_id)

    def mark_all_read(self, player_id: str, upto: str | None) -> None:
        pipe = self.redis.pipeline(transaction=False)
        if upto is not None:
            pipe.set(notify_keys.player_notes_seen(player_id), upto)
        pipe.delete(notify_keys.player_notes_read(player_id))
        pipe.execute()

    def games(self, player_id: str) -> list[str]:
        return [g.decode() for g in self.redis.zrange(keys.player_games(player_id), 0, -1)]

    def drop_game(self, player_id: str, game_id: str) -> None:
        self.redis.zrem(keys.player_games(player_id), game_id)

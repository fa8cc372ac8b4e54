"""Event streams opened on in-memory ports (tests/support/memory_boot.py), read through
the stream hub's port (`boot.hub`, stores.memory.hub) as api.streams.follow reads them:
a game's log with its chat and a party's private log beside it (as api.sse opens it), or
a player's feed. No HTTP, no loop, no heartbeat: a test looks for new frames when it
has written something."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

from service.bootstrap import Bootstrap
from service.feed_stream import Feed
from service.frames import Frame
from service.game_stream import GameStream
from service.table_frames import Table

Render = Callable[[str, dict[bytes, bytes]], Any]


class Opened:
    """One open stream: the frames sent so far (`frames`), and whether it ended."""

    def __init__(
        self,
        boot: Bootstrap,
        key: str,
        after: str,
        render: Render,
        first: list[Frame],
        also: list[tuple[str, str, Render]],
    ):
        self.hub, self.key, self.render = boot.hub, key, render
        self.frames, self.ended = list(first), False
        self.sub, gap = self.hub.subscribe(key, after)
        self.sides: list[tuple[Any, str, Render]] = []
        gaps = []
        for side_key, start, side_render in also:
            side, got = self.hub.subscribe(side_key, start, news=self.sub.news)
            self.sides.append((side, side_key, side_render))
            gaps.append(got)
        self._render(gap, gaps)

    def more(self) -> list[Frame]:
        """The frames of what was written since the last look (none once it ended)."""
        if self.ended:
            return []
        entries = self.hub.take(self.sub, 0)
        return self._render(entries, [self.hub.take(side, 0) for side, _, _ in self.sides])

    def _render(self, entries: list, sides: list[list]) -> list[Frame]:
        made: list[Frame] = []
        for entry_id, fields in entries:
            frames, self.ended = self.render(entry_id.decode(), fields)
            made += frames
            if self.ended:
                break
        for (_, _, side_render), got in zip(self.sides, sides):
            for entry_id, fields in got:
                made += side_render(entry_id.decode(), fields)
        self.frames += made
        if self.ended:
            self.hub.unsubscribe(self.key, self.sub)
            for side, side_key, _ in self.sides:
                self.hub.unsubscribe(side_key, side)
        return made


def game(
    boot: Bootstrap,
    game_id: str,
    player_id: str | None,
    after: int = 0,
    seen: int | None = None,
    table: Table | None = None,
) -> Opened:
    """A game's stream for `player_id` (None: a spectator) resumed after event `after`
    (and, with `seen`, after its seat's `seen`-th private step: Last-Event-ID
    `<after>.<seen>`), as GET /v1/games/<id>/events/stream opens it (with `table`, as
    `?with=table` opens it)."""
    stream = GameStream(boot, game_id, player_id, after, seen, table)
    also: list[tuple[str, str, Render]] = [(stream.chat_key, stream.chat_after(), stream.chat)]
    if (private := stream.private_log()) is not None:
        also.append(private)
    return Opened(boot, stream.events_key, f"{after}-0", stream.entry, stream.opening(), also)


def feed(boot: Bootstrap, player_id: str, after: str | None = None) -> Opened:
    """A player's feed (from now on, or after feed id `after`), as GET
    /v1/players/me/feed opens it."""
    stream = Feed(boot, player_id, after)
    return Opened(boot, stream.key, stream.after, stream.entry, [stream.first()], [])


def data(frame: Frame) -> dict[str, Any]:
    return orjson.loads(frame.data)


def events(frames: list[Frame]) -> list[dict[str, Any]]:
    """The game's events among `frames` (those with an id), as their data without the
    `owes` a seated caller's frame carries beside an append's last event."""
    return [{k: v for k, v in data(f).items() if k != "owes"} for f in frames if f.id]


def named(frames: list[Frame], event: str) -> list[dict[str, Any]]:
    return [data(f) for f in frames if f.event == event]

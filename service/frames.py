"""What every open event stream (server-sent events) is made of: its frames, sent by the
game's stream (service.game_stream), a party's private steps (service.private_stream)
and the feeds; and the per-process cache the streams build them from (`Shared`)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, NamedTuple

import orjson


class Frame(NamedTuple):
    id: str | None  # None: the frame does not move Last-Event-ID
    event: str
    data: str  # JSON on one line


class Shared:
    """A small per-process LRU of what many streams compute alike. No lock: each of its
    dict operations is atomic, and under gevent a monkey-patched lock cost more than the
    rest of a look-up. A value is made once however many streams miss it at the same
    time: a make that waits on Redis would otherwise be made by every stream that woke
    with the same entry (a finished game's receipt, made by each of its seats' streams).
    Those that come while it is made wait for it (at most `WAIT_S`, then make it
    themselves); under real threads a race may still make a value twice, never wrongly."""

    WAIT_S = 5.0

    def __init__(self, size: int = 8192):
        self.items: OrderedDict[Any, Any] = OrderedDict()
        self.making: dict[Any, threading.Event | None] = {}  # keys being made; their waiters
        self.size = size

    def get(self, key: Any, make: Callable[[], Any]) -> Any:
        items = self.items
        try:
            value = items[key]
        except KeyError:
            return self._make(key, make)
        try:
            items.move_to_end(key)
        except KeyError:  # evicted meanwhile by another thread
            pass
        return value

    def _make(self, key: Any, make: Callable[[], Any]) -> Any:
        making = self.making
        if key in making:  # another stream makes it now: wait for its value
            news = making.get(key)
            if news is None:
                news = making[key] = threading.Event()
            if news.wait(self.WAIT_S):
                try:
                    return self.items[key]
                except KeyError:  # its make failed, or it was evicted or forgotten at once
                    return self._make(key, make)
            if making.get(key) is news:  # (threads) its maker was gone before we came
                making.pop(key, None)
            return make()  # a slow make: this one's own, not kept
        making[key] = None
        try:
            value = self.items[key] = make()
        finally:
            news = making.pop(key, None)
            if news is not None:
                news.set()
        while len(self.items) > self.size:
            try:
                self.items.popitem(last=False)
            except KeyError:  # emptied meanwhile by another thread
                break
        return value

    def peek(self, key: Any) -> Any:
        """Return what is kept under `key`, or None."""
        return self.items.get(key)

    def forget(self, key: Any) -> None:
        """Drop what is kept under `key` (a value good only for those who waited for it)."""
        self.items.pop(key, None)


def json_text(value: Any) -> str:
    """A frame's data: `value` as JSON on one line."""
    return orjson.dumps(value).decode()

"""What every open event stream (server-sent events) is made of: its frames, sent by the
game's stream (service.game_stream), a party's private steps (service.private_stream)
and the feeds; and the per-process cache the streams build them from (`Shared`)."""

from __future__ import annotations

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
    dict operations is atomic, a miss computes the value again, and under gevent a
    monkey-patched lock cost more than the rest of a look-up."""

    def __init__(self, size: int = 8192):
        self.items: OrderedDict[Any, Any] = OrderedDict()
        self.size = size

    def get(self, key: Any, make: Callable[[], Any]) -> Any:
        items = self.items
        try:
            value = items[key]
        except KeyError:
            value = items[key] = make()
            while len(items) > self.size:
                try:
                    items.popitem(last=False)
                except KeyError:  # emptied meanwhile by another thread
                    break
            return value
        try:
            items.move_to_end(key)
        except KeyError:  # evicted meanwhile by another thread
            pass
        return value

    def peek(self, key: Any) -> Any:
        """Return what is kept under `key`, or None."""
        return self.items.get(key)


def json_text(value: Any) -> str:
    """A frame's data: `value` as JSON on one line."""
    return orjson.dumps(value).decode()

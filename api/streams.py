"""Long-lived event streams (Server-Sent Events) over Redis streams: one loop for a game's
events and a player's feed, a cap on how many one caller holds open, and a prompt end on
server shutdown.

The API runs under gunicorn's gevent workers (cli.serve.gunicorn_argv), so a waiting
stream holds a greenlet, never a request thread: streams cannot starve other requests.
Streams of one Redis stream share one reader per process (stores.hub). While it
waits, a stream looks at its client's socket once per heartbeat, so a client that went
away is noticed within one heartbeat.
"""

from __future__ import annotations

import logging
import socket
import sys
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from greenlet import GreenletExit

from service import metrics
from service.frames import Frame

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap
    from service.stream_slots import Slot

logger = logging.getLogger(__name__)
# What to send for one entry (frames), and whether the stream ends after it
Render = Callable[[str, dict[bytes, bytes]], tuple[list[Frame], bool]]
Side = Callable[[str, dict[bytes, bytes]], list[Frame]]  # a stream followed alongside


class StreamClosed(GreenletExit):
    """Thrown into a stream still open a moment after the server began to shut down
    (see `close_all`)."""


# the greenlets serving streams in this process -> the event each one's loop waits on
# (None until it has subscribed)
_open: dict[Any, Any] = {}
_closing = False
STRAGGLERS_S = 1.0  # how long a stream may take to finish by itself at shutdown
# The closing frame of a stream ended by a shutdown: an SSE comment (every client may
# ignore it; one that reads it knows to reconnect now with Last-Event-ID, not after a
# timeout) and a short reconnection delay.
CLOSING = ": closing: the server is stopping; reconnect with Last-Event-ID\nretry: 250\n\n"


def text(frame: Frame) -> str:
    """Return one SSE frame on the wire (`id:` only for frames that move Last-Event-ID)."""
    head = f"id: {frame.id}\n" if frame.id is not None else ""
    return f"{head}event: {frame.event}\ndata: {frame.data}\n\n"


def follow(
    boot: Bootstrap,
    stream: str,
    after: str,
    render: Render,
    *,
    beat: float,
    most: float,
    slot: Slot,
    first: list[Frame] | None = None,
    client: socket.socket | None = None,
    also: list[tuple[str, str, Side]] | None = None,
) -> Iterator[str]:
    """Yield SSE frames: `first`, then those `render` makes of the entries of Redis
    stream `stream` after id `after`, a comment line every `beat` seconds from the connect
    (a fixed schedule, news or not),
    until `render` says the stream ends, `most` seconds pass, the slot's token is revoked,
    the client goes away or the server shuts down. The stream is read through the
    process's shared reader (stores.hub). Each of `also` (a stream, where to start, its
    render) is followed alongside, e.g. a game's chat and a party's private steps beside
    its log; their entries are rendered after the log's that arrived with them."""
    me = _greenlet()
    if me is not None:
        _open[me] = None
    opened = time.monotonic()
    ends, refreshed = opened + most, opened
    # heartbeats on a fixed schedule from the connect: `opened + k * beat`, whatever was
    # sent or read in between, so their timing tells nothing (above all not when others'
    # private steps woke the loop: #49.1)
    next_beat = opened + beat
    sub = None
    sides: list[tuple[Any, Side, str]] = []  # (subscription, render, stream)
    side_entries: list[list[Any]] = []
    metrics.STREAMS.inc()
    try:
        yield "retry: 1000\n\n" + "".join(text(f) for f in first or ())
        sub, entries = boot.hub.subscribe(stream, after)
        if me is not None:
            _open[me] = sub.news  # close_all wakes the loop through it
        for key, start, side_render in also or ():
            side, got = boot.hub.subscribe(key, start, news=sub.news)
            sides.append((side, side_render, key))
            side_entries.append(got)
        while not _closing:
            if entries or any(side_entries):
                frames, last = [], False
                for entry_id, fields in entries:
                    made, last = render(entry_id.decode(), fields)
                    frames += [text(f) for f in made]
                    if last:
                        break
                for (_, side_render, _), got in zip(sides, side_entries):
                    for entry_id, fields in got:
                        frames += [text(f) for f in side_render(entry_id.decode(), fields)]
                if frames:
                    yield "".join(frames)  # one write for what one append brought
                if last:
                    return
            now = time.monotonic()
            if now >= ends:
                return
            try:
                entries = boot.hub.take(sub, max(0.0, min(next_beat, ends) - now))
                side_entries = [boot.hub.take(side, 0) for side, _, _ in sides]
            except StreamClosed:
                return
            if entries is None or any(got is None for got in side_entries):  # Redis failed:
                return  # the client reconnects with Last-Event-ID
            if time.monotonic() - refreshed >= 0.9 * beat:  # however busy, it keeps its slot
                if not slot.refresh():
                    return  # its token was revoked: no more frames for it
                refreshed = time.monotonic()
            if next_beat <= (now := time.monotonic()) < ends:
                while next_beat <= now:
                    next_beat += beat  # a beat missed (a slow client) is not made up
                if client is not None and gone(client):
                    return
                yield ": heartbeat\n\n"  # what was just read is sent right after it
        yield CLOSING  # the server is stopping: the client reconnects (elsewhere) at once
    finally:
        metrics.STREAMS.dec()
        _open.pop(me, None)
        if sub is not None:
            boot.hub.unsubscribe(stream, sub)
        for side, _, key in sides:
            boot.hub.unsubscribe(key, side)
        try:
            slot.close()
        except Exception:  # the slot expires by itself
            logger.warning("could not release a stream slot", exc_info=True)


def gone(client: socket.socket) -> bool:
    """Return True if the client has closed its end of the connection."""
    import select

    try:
        readable, _, _ = select.select([client], [], [], 0)
        return bool(readable) and client.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):
        return True


def _greenlet() -> Any:
    """Return the current greenlet when this process runs under gevent, else None."""
    gevent = sys.modules.get("gevent")
    if gevent is None or not gevent.monkey.is_module_patched("socket"):
        return None
    return gevent.getcurrent()


def close_all() -> None:
    """End every open stream of this process now (the server is shutting down): each
    loop is woken, sees the shutdown and finishes its response cleanly, and clients
    reconnect elsewhere with Last-Event-ID. A stream still open `STRAGGLERS_S` later (its
    greenlet held elsewhere, e.g. writing to a client that does not read) is ended with
    `StreamClosed` thrown into it; nothing is thrown into a greenlet that is no longer
    serving a stream (one waiting for its connection's next request, say)."""
    global _closing
    _closing = True
    gevent = sys.modules.get("gevent")
    for news in list(_open.values()):
        if news is not None:
            news.set()
    gevent.spawn_later(STRAGGLERS_S, _end_stragglers)


def _end_stragglers() -> None:
    gevent = sys.modules.get("gevent")
    for greenlet in list(_open):
        gevent.kill(greenlet, StreamClosed)

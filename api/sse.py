"""Server-Sent Events routes: a game's events as they are appended, redacted for the
caller, and a player's feed of notes. Both run on `api.streams.follow`.

A game stream also carries the table chat posted while it is open (`chat` frames, without
an `id:`), and each event frame of a seated caller carries `owes`: what that seat owes
right after the append the event belongs to. It resumes after `Last-Event-ID` (or
`?after=`), sends a comment line as a
heartbeat every `SSE_HEARTBEAT_S` seconds, ends after `game.Ended` (a resume past the end
of a finished game answers 204, which tells EventSource to stop), and closes after
`SSE_MAX_S` seconds so that a client reconnects (with Last-Event-ID). A caller holds at
most `STREAM_LIMIT_TOKEN` streams open at once (`STREAM_LIMIT_ANON` per address without
a token); past that it gets 429 `too_many_streams`.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from flask import Blueprint, Response, current_app, request, stream_with_context

from api import auth, limits
from api.context import boot
from api.errors import Problem
from api.parse import event_seq, feed_id
from api.parse import game_id as game_id_ok
from api.streams import Slot, follow
from events import codec, keys
from events.record import FINISHED
from events.redact import redact
from service import chat, game_queries, inbox

bp = Blueprint("stream", __name__, url_prefix="/v1")


class Shared:
    """A small per-process LRU of what many streams of one game compute alike: each event
    decoded once, each frame redacted and encoded once per kind of viewer."""

    def __init__(self, size: int = 8192):
        self.items: OrderedDict[Any, Any] = OrderedDict()
        self.size, self.lock = size, threading.Lock()

    def get(self, key: Any, make: Callable[[], Any]) -> Any:
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key]
        value = make()
        with self.lock:
            self.items[key] = value
            if len(self.items) > self.size:
                self.items.popitem(last=False)
        return value


SHARED = Shared()


def _sse(stream: str, after: str, render, also=None) -> Response:
    """Open a stream slot for the caller (or answer 429) and serve the stream."""
    cfg = current_app.config
    beat, caller = float(cfg["SSE_HEARTBEAT_S"]), limits.identity()
    cap = cfg["STREAM_LIMIT_TOKEN" if caller.startswith("player:") else "STREAM_LIMIT_ANON"]
    slot = Slot(boot(), caller, beat)
    if not slot.open(int(cap)):
        raise Problem(
            429,
            "too_many_streams",
            f"at most {cap} event streams may be open at once for one caller",
            retry_after=beat,  # a crashed server's streams stop counting within 2 beats
        )
    frames = follow(
        boot(),
        stream,
        after,
        render,
        beat=beat,
        most=float(cfg["SSE_MAX_S"]),
        slot=slot,
        client=request.environ.get("gunicorn.socket"),
        also=also,
    )
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(stream_with_context(frames), mimetype="text/event-stream", headers=headers)


@bp.get("/games/<game_id>/events/stream")
def stream_events(game_id: str):
    player = auth.caller(boot(), required=False)
    after = event_seq()
    rec = game_queries.load(boot(), game_id_ok(game_id))
    if rec.status == FINISHED and after >= rec.version:
        return Response(status=204)  # nothing will ever follow: EventSource stops on 204
    player_id = player["id"] if player else None
    seen = {"rec": rec, "seat": rec.seat_of(player_id) if player_id else None}

    def render(entry_id: str, fields: dict[bytes, bytes]) -> tuple[str, bool]:
        envelope = SHARED.get((rec.game_id, entry_id), lambda: codec.loads(fields[b"e"]))
        kind, ended = envelope["type"], envelope["type"] == "game.Ended"
        if ended:
            seen["rec"] = replace(seen["rec"], status=FINISHED)
        if kind == "game.PlayerJoined" and envelope["data"]["player"] == player_id:
            seen["seat"] = envelope["data"]["seat"]  # the caller took a seat while watching
        viewer, shown = seen["seat"], seen["rec"]

        def frame() -> str:
            shown_env = redact(envelope, shown, viewer)  # a private event's type is hidden too
            if viewer is not None and b"o" in fields:  # not part of the hashed envelope
                owed = SHARED.get((rec.game_id, entry_id, "o"), lambda: json.loads(fields[b"o"]))
                shown_env = {**shown_env, "owes": [o for o in owed if o["seat"] == viewer]}
            data = json.dumps(shown_env, separators=(",", ":"))
            return f"id: {envelope['seq']}\nevent: {shown_env['type']}\ndata: {data}\n\n"

        key = (rec.game_id, entry_id, viewer, shown.status)
        return SHARED.get(key, frame), ended

    def render_chat(entry_id: str, fields: dict[bytes, bytes]) -> tuple[str | None, bool]:
        message = chat.decode(entry_id, fields)
        if not chat.visible(message, seen["seat"] is not None, seen["rec"].status):
            return None, False
        # no `id:` line: Last-Event-ID keeps naming the game's events
        return f"event: chat\ndata: {json.dumps(message, separators=(',', ':'))}\n\n", False

    talk = (keys.game_chat(rec.game_id), chat.last_id(boot(), rec.game_id), render_chat)
    return _sse(keys.game_events(rec.game_id), f"{after}-0", render, talk)


@bp.get("/players/me/feed")
def my_feed():
    player = auth.caller(boot())
    after = feed_id()
    if after is None:
        after = inbox.last_id(boot(), player["id"])

    def render(entry_id: str, fields: dict[bytes, bytes]) -> tuple[str, bool]:
        note = fields[b"n"].decode()
        return f"id: {entry_id}\nevent: {json.loads(note)['type']}\ndata: {note}\n\n", False

    return _sse(keys.player_feed(player["id"]), after, render)

"""Server-Sent Events: a game's events as they are appended, redacted for the caller.

Each stream blocks on XREAD of the game's own Redis stream, so any API node can serve any
game. It resumes after `Last-Event-ID` (or `?after=`), sends a comment line as a
heartbeat every `SSE_HEARTBEAT_S` seconds, ends after `game.Ended` (a resume past the end
of a finished game answers 204, which tells EventSource to stop), and closes after
`SSE_MAX_S` seconds so that a client reconnects (with Last-Event-ID) and no server thread
is held forever. Under gunicorn's gthread workers each open stream holds one thread.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import replace

from flask import Blueprint, Response, current_app, request, stream_with_context

from events import codec, keys
from events.record import FINISHED, Record
from events.redact import redact
from service import auth, commands
from service.api import DIGITS, deps, game_id_ok
from service.errors import Problem

bp = Blueprint("stream", __name__, url_prefix="/v1")


def _resume_point() -> int:
    raw = request.headers.get("Last-Event-ID") or request.args.get("after") or "0"
    if not DIGITS.fullmatch(raw.strip()):
        raise Problem(
            422,
            "invalid_header",
            "Last-Event-ID must be an event seq",
            errors={"Last-Event-ID": ["must be a whole number"]},
        )
    return int(raw)


@bp.get("/games/<game_id>/events/stream")
def stream_events(game_id: str):
    player = auth.caller(deps(), required=False)
    after = _resume_point()
    rec = commands.load(deps(), game_id_ok(game_id)).record
    if rec.status == FINISHED and after >= rec.version:
        return Response(status=204)  # nothing will ever follow: EventSource stops on 204
    cfg = current_app.config
    player_id = player["id"] if player else None
    frames = _frames(rec, player_id, after, float(cfg["SSE_HEARTBEAT_S"]), float(cfg["SSE_MAX_S"]))
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(stream_with_context(frames), mimetype="text/event-stream", headers=headers)


def _frames(
    rec: Record, player_id: str | None, after: int, beat: float, most: float
) -> Iterator[str]:
    client, stream = deps().blocking, keys.game_events(rec.game_id)
    seat = rec.seat_of(player_id) if player_id else None
    ends = time.monotonic() + most
    yield "retry: 1000\n\n"
    while time.monotonic() < ends:
        answer = client.xread({stream: f"{after}-0"}, count=200, block=int(beat * 1000))
        if not answer:
            yield ": heartbeat\n\n"
            continue
        for _, entries in answer:
            for _, fields in entries:
                envelope = codec.loads(fields[b"e"])
                if envelope["type"] == "game.Ended":
                    rec = replace(rec, status=FINISHED)
                if (
                    envelope["type"] == "game.PlayerJoined"
                    and envelope["data"]["player"] == player_id
                ):
                    seat = envelope["data"]["seat"]  # the caller took a seat while watching
                shown = json.dumps(redact(envelope, rec, seat), separators=(",", ":"))
                after = envelope["seq"]
                yield f"id: {after}\nevent: {envelope['type']}\ndata: {shown}\n\n"
                if envelope["type"] == "game.Ended":
                    return

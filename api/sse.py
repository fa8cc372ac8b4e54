"""Server-Sent Events routes: a game's events as they are appended, redacted for the
caller, and a player's feed of notes. Both run on `api.streams.follow`; what they send
is made by `service.game_stream`.

A game stream starts with an `owes` frame (where the game stands for the caller: version,
status, its seat, what it owes with deadlines, its legal actions when it owes something),
then sends the events after `Last-Event-ID` (or `?after=`), each redacted for the seat the
caller holds at that event, an `owes` frame after each append that gives the caller's
seat something new to do, the table chat posted while it is open (`chat` frames) and,
to a seated caller, the private steps its seat is party to (Black Market wild trade: ids
`<seq>.<k>`, service.private_stream) and, with `?with=table`, a `table` frame (the game and
the legal actions as the caller's seat may see them, service.table_frames) on connect and
after each append.
Frames other than events carry no `id:`, so Last-Event-ID keeps naming the game's events.
It sends a comment line as a heartbeat every `SSE_HEARTBEAT_S` seconds, ends after
`game.Ended` (a resume past the end of a finished game answers 204, which tells
EventSource to stop) and after the caller's own `game.PlayerLeft`, ends within one
heartbeat once its token is revoked, and closes after `SSE_MAX_S` seconds so that a
client reconnects (with Last-Event-ID). A feed starts with a `turns` frame (the caller's
open turns). A player holds at most `STREAM_LIMIT_TOKEN` streams open at once, all its tokens
together (`STREAM_LIMIT_ANON` per address without a token); past that it gets 429
`too_many_streams`.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, request, stream_with_context

from api import auth, limits, present
from api.context import boot
from api.errors import Problem
from api.parse import event_cursor, feed_id, lang
from api.parse import game_id as game_id_ok
from api.streams import Render, Side, follow
from service.errors import Invalid
from service.feed_stream import Feed
from service.frames import Frame
from service.game_stream import GameStream
from service.stream_slots import Slot
from service.table_frames import Table

bp = Blueprint("stream", __name__, url_prefix="/v1")


def _sse(
    stream: str, after: str, render: Render, first: list[Frame], also: list | None = None
) -> Response:
    """Open a stream slot for the caller (or answer 429) and serve the stream."""
    cfg = current_app.config
    beat, caller = float(cfg["SSE_HEARTBEAT_S"]), limits.identity()
    cap = cfg["STREAM_LIMIT_TOKEN" if caller.startswith("player:") else "STREAM_LIMIT_ANON"]
    token = auth.bearer() if auth.caller(boot(), required=False) else None
    slot = Slot(boot(), caller, beat, token if isinstance(token, str) else None)
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
        first=first,
        client=request.environ.get("gunicorn.socket"),
        also=also,
    )
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(stream_with_context(frames), mimetype="text/event-stream", headers=headers)


@bp.get("/games/<game_id>/events/stream")
def stream_events(game_id: str):
    player = auth.caller(boot(), required=False)
    after, seen = event_cursor()
    caller = player["id"] if player else None
    table = _table(request.args.get("with"))
    game = GameStream(boot(), game_id_ok(game_id), caller, after, seen, table)
    if game.finished:
        return Response(status=204)  # nothing will ever follow: EventSource stops on 204
    also: list[tuple[str, str, Side]] = [(game.chat_key, game.chat_after(), game.chat)]
    if (private := game.private_log()) is not None:  # before the opening frames: it reads
        also.append(private)  # the private log as it stands
    return _sse(game.events_key, f"{after}-0", game.entry, game.opening(), also)


def _table(asked: str | None) -> Table | None:
    """The table frames a stream sends with `?with=table` (service.table_frames), in the
    caller's language; None without it. Anything else is refused, naming the parameter."""
    if asked is None:
        return None
    if asked != "table":
        errors = {"with": ["must be 'table' (or left out)"]}
        raise Invalid("invalid_query", "unknown stream option", errors=errors)
    speaks = lang()
    return Table(lambda rec, seat: present.table(rec, seat, speaks), speaks)


@bp.get("/players/me/feed")
def my_feed():
    player = auth.caller(boot())
    feed = Feed(boot(), player["id"], feed_id())
    return _sse(feed.key, feed.after, feed.entry, [feed.first()])

"""What a game's event stream and a player's feed send one caller (api.sse serves them,
api.streams runs the loop): each Redis stream entry turned into frames for that caller.

A game stream starts with one `owes` frame saying where the game stands for the caller
(version, status, its seat, what it owes with deadlines, who owes what, and, when it owes
something, its legal actions), then sends the events after the resume point, each
redacted for the seat the caller holds *at that event*: before the start a seat in front
of the caller may leave (`game.PlayerLeft`) and the later seats move up, so the viewer
is followed event by event from the joins and leaves after the version the stream opened
at (the record loaded then gives the seat up to it). The stream ends after `game.Ended`
(followed by one `receipt` frame: the game's receipt, service.receipts) and after the
caller's own `game.PlayerLeft`.

Live, after each append that changes what the caller's seat owes, or leaves it owing a
sequential decision at a new version, another `owes` frame follows the append's events
(a simultaneous decision still open is not signalled again when other seats submit:
the version the caller read still stands for it). Event frames keep the `owes` field of
v1 on the last event of each append.

A seated caller's stream of a game that keeps a private log also sends its seat's private
steps (ids `<seq>.<k>`), in the order they were decided (service.private_stream).

A stream opened with `?with=table` also sends `table` frames (service.table_frames): the
game as the caller's seat may see it and its legal actions, after the opening frames, after
each append and after each of its seat's private steps.

Frames are (id or None, event name, data as JSON text); the API writes them. The `owes`
frame's body is built in service.owes_frame; a player's feed is service.feed_stream. What many
streams of one game compute alike (an entry decoded, a frame for one kind of viewer, an
`owes` frame for one seat at one version) is computed once per process (`SHARED`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import orjson

from events import catalog, codec, keys
from events.fold import fold_all
from events.record import ACTIVE, FINISHED, Record
from events.redact import redact
from service import chat, receipts
from service.frames import Frame, Shared, json_text
from service.game_log import load, owed
from service.owes_frame import OWES, owes_body, owes_data
from service.private_stream import PrivateSteps, follows
from service.table_frames import Table
from service.table_frames import frame as table_frame

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


SHARED = Shared()
RECORDS = Shared(256)  # records at a version, for `owes` frames: few, since records are big
RECEIPT = "receipt"  # the game's receipt, after `game.Ended` (service.receipts)


class GameStream:
    """One caller's stream of one game (`player_id` None: a spectator)."""

    def __init__(
        self,
        boot: Bootstrap,
        game_id: str,
        player_id: str | None,
        after: int,
        seen: int | None = None,
        table: Table | None = None,
    ):
        self.boot, self.player_id, self.table = boot, player_id, table
        rec = load(boot, game_id)
        self.rec, self.game_id, self.after = rec, rec.game_id, after
        # a party's private steps (service.private_stream); `seen`: the k of `<after>.<k>`
        self.private = PrivateSteps(boot, rec, after, seen) if follows(rec, player_id) else None
        self.opened = rec.version  # joins and leaves up to here are in `rec`'s seats
        self.seat = rec.seat_of(player_id) if player_id else None
        self.status = rec.status
        self.said: tuple[int, list[dict[str, Any]]] | None = None  # the last owes frame
        self.events_key, self.chat_key = keys.game_events(game_id), keys.game_chat(game_id)

    @property
    def finished(self) -> bool:
        """True when nothing will follow the resume point: the game is over and seen."""
        return self.rec.status == FINISHED and self.after >= self.rec.version

    def chat_after(self) -> str:
        return chat.last_id(self.boot, self.game_id)

    def first(self) -> Frame:
        """The frame every connect starts with: where the game stands for the caller."""
        data = owes_data(self.rec, self.seat, owed(self.rec))
        self.said = (self.rec.version, data["owes"])
        return Frame(None, OWES, json_text(data))

    def private_log(self) -> tuple[str, str, Callable[..., list[Frame]]] | None:
        """The private log to follow beside the events (where to start, the render), for
        a caller who may be party to private steps; None for anyone else."""
        if self.private is None:
            return None
        return (keys.game_private(self.game_id), self.private.start(), self.private_entry)

    def opening(self) -> list[Frame]:
        """The frames a connect starts with: `owes`, then the caller's private steps that
        followed the resume point and came before the next event."""
        mine = self._mine(self.after) if self.private is not None else []
        return [self.first(), *mine, *self._tables(self.rec)]

    def private_entry(self, entry_id: str, fields: dict[bytes, bytes]) -> list[Frame]:
        """The frames of a private log entry the shared reader handed over (none for
        steps of others, or for a step whose public event has not been sent yet)."""
        assert self.private is not None
        self.private.news([fields])
        mine = self._mine(self.private.sent_upto)
        return [*mine, *self._table(None)] if mine else []

    def _mine(self, upto: int) -> list[Frame]:
        assert self.private is not None
        return self.private.frames(self.rec, self.seat, upto)

    def entry(self, entry_id: str, fields: dict[bytes, bytes]) -> tuple[list[Frame], bool]:
        """Return the frames of one log entry for the caller and whether the stream ends
        after them."""
        envelope, _ = SHARED.get(
            (self.game_id, entry_id), lambda: (codec.loads(fields[b"e"]), fields[b"e"])
        )
        kind, seq = envelope["type"], envelope["seq"]
        before: list[Frame] = []
        if self.private is not None and self.status == ACTIVE:
            self.private.catch_up()  # a step decided before this event goes before it
            before = self._mine(seq - 1)
        ends = kind == catalog.ENDED
        if seq > self.opened:  # later than the record the stream opened with
            ends |= self._follow_seat(kind, envelope["data"])
            self.status = catalog.STATUS_AFTER.get(kind, self.status)
        elif kind == catalog.ENDED:
            self.status = FINISHED
        viewer, status = self.seat, self.status
        owed_then = None
        if b"o" in fields:  # beside the last event of an append, not in the hashed envelope
            owed_then = SHARED.get(
                (self.game_id, entry_id, "o"), lambda: orjson.loads(fields[b"o"])
            )

        def frame() -> Frame:
            shown_rec = self.rec if self.rec.status == status else _with_status(self.rec, status)
            shown = redact(envelope, shown_rec, viewer)  # a private event's type is hidden too
            if viewer is not None and owed_then is not None:
                shown = {**shown, "owes": [o for o in owed_then if o["seat"] == viewer]}
            return Frame(str(seq), shown["type"], json_text(shown))

        frames = [*before, SHARED.get((self.game_id, entry_id, viewer, status), frame)]
        if owed_then is not None and seq > self.opened and viewer is not None and not ends:
            frames += self._owes(seq, owed_then)
        held: list[Frame] = []
        if self.private is not None:
            self.private.sent_upto = seq
            frames += (held := self._mine(seq))  # steps held back until this event was sent
        if before or held:  # the caller's private steps went with it: the game as it stands
            frames += self._table(None)
        elif owed_then is not None and seq > self.opened:  # the table after this append
            frames += self._table(seq)
        if kind == catalog.ENDED:  # the game's receipt, the same for everyone: public now
            frames += self._receipt()
        return frames, ends

    def _table(self, seq: int | None) -> list[Frame]:
        """The table frame (service.table_frames) of a stream that asked for them: the game
        at `seq` (the end of an append; none when the log has moved on already: a later
        append's frame says it) or, after a private step of the caller's seat (None), the
        game as it stands."""
        if self.table is None:
            return []
        if seq is None:
            assert self.private is not None
            key = (self.game_id, "private", self.private.read)  # the steps read so far
            rec = RECORDS.get(key, lambda: load(self.boot, self.game_id))
        else:
            rec = RECORDS.get((self.game_id, seq), lambda: self._record(seq))
        return self._tables(rec) if rec is not None else []

    def _tables(self, rec: Record) -> list[Frame]:
        return [table_frame(self.table, rec, self.seat)] if self.table is not None else []

    def _receipt(self) -> list[Frame]:
        """The `receipt` frame, made once per process when the game's leaves are merged
        (before that, made for the streams that wait for it at once, and again later)."""
        key = (self.game_id, RECEIPT)
        found, merged = SHARED.get(key, self._made_receipt)
        if not merged:
            SHARED.forget(key)
        return [found] if found is not None else []

    def _made_receipt(self) -> tuple[Frame | None, bool]:
        kept = receipts.kept(self.boot, self.game_id)
        if kept is None:
            return None, False
        return Frame(None, RECEIPT, json_text(kept)), "leaves" in kept

    def _follow_seat(self, kind: str, data: dict[str, Any]) -> bool:
        """Move the caller's seat with a join or a leave; True when the caller left."""
        if self.player_id is None:
            return False
        if kind == catalog.PLAYER_JOINED and data["player"] == self.player_id:
            self.seat = data["seat"]  # the caller took a seat while watching
        elif kind == catalog.PLAYER_LEFT:
            if data["player"] == self.player_id:
                self.seat = None
                return True  # its stream ends: a reconnect watches as anyone else
            if self.seat is not None and data["seat"] < self.seat:
                self.seat -= 1  # a seat in front of the caller was freed: seats move up
        return False

    def _owes(self, seq: int, owed_then: list[dict[str, Any]]) -> list[Frame]:
        """An `owes` frame after the append ending at `seq`, when it tells the caller
        something new: what its seat owes changed, or it owes a sequential decision at a
        newer version than the last frame said."""
        seat = self.seat
        mine = [o for o in owed_then if o["seat"] == seat]
        if self.said is not None:
            version, before = self.said
            if seq <= version:
                return []  # already said at a newer version (the first frame)
            if mine == before and all(o["simultaneous"] for o in mine):
                return []  # nothing new for this seat
        frame = SHARED.get(
            (self.game_id, seq, seat, OWES), lambda: self._owes_frame(seq, seat, mine, owed_then)
        )
        if frame is None:
            return []  # the log moved on already: a later append's frame says it
        self.said = (seq, mine)
        return [frame]

    def _owes_frame(
        self, seq: int, seat: int, mine: list[dict[str, Any]], owed_then: list[dict[str, Any]]
    ) -> Frame | None:
        """The `owes` frame of `seat` after the append ending at `seq`, whose `owed_then`
        (stored beside it) is what `owed` says of the record at `seq` (`mine`: the seat's
        part). A seat that owes nothing then needs no record: the stream knows the status
        at `seq` (its events)."""
        if not mine:
            return Frame(
                None, OWES, json_text(owes_body(seq, self.status, seat, [], owed_then, []))
            )
        rec = RECORDS.get((self.game_id, seq), lambda: self._record(seq))
        if rec is None:
            return None
        return Frame(None, OWES, json_text(owes_data(rec, seat, owed_then)))

    def _record(self, seq: int) -> Record | None:
        """The game's record at `seq`: this process's own when it made that append, else
        the one it holds advanced through the entries its streams have received since
        (`_advance`), else loaded; None when the log has moved on since."""
        held = self.boot.store.held(self.game_id)
        if held is not None:
            rec = held[0].record
            if rec.version == seq:
                return rec
            if rec.version > seq:
                return None  # the log has moved on: no load for a version gone already
            if rec.version < seq and (advanced := self._advance(rec, held[1], seq)) is not None:
                return advanced
        rec = load(self.boot, self.game_id)
        return rec if rec.version == seq else None

    def _advance(self, rec: Record, last: bytes, seq: int) -> Record | None:
        """`rec` (whose last entry is stored as `last`) folded through the entries after it
        up to `seq`, as a load would fold them, when this process's streams have received
        each of them and the one at `rec`'s version is `last` byte for byte (a load's
        round trip saved); None otherwise, or for a game whose private steps this stream
        does not carry."""
        if rec.keeps_private_log or rec.private:
            return None
        seen = [SHARED.peek((self.game_id, f"{n}-0")) for n in range(rec.version, seq + 1)]
        if any(entry is None for entry in seen) or seen[0][1] != last:
            return None
        advanced = fold_all(rec, [envelope for envelope, _ in seen[1:]])
        self.boot.store.hold(advanced, seen[-1][1])
        return advanced

    def chat(self, entry_id: str, fields: dict[bytes, bytes]) -> list[Frame]:
        """A table chat message, when the caller may read it (no id: Last-Event-ID keeps
        naming the game's events)."""
        message = chat.decode(entry_id, fields)
        if not chat.visible(message, self.seat is not None, self.status):
            return []
        return [Frame(None, "chat", json_text(message))]


def _with_status(rec: Record, status: str) -> Record:
    """`rec` as redaction sees it once the game's status moved on (everything opens at
    the end)."""
    return replace(rec, status=status)

"""The private steps one party's game stream sends (docs/architecture.md, "Private steps";
docs/clients.md, "Private steps on your stream").

A game that keeps a private log (Black Market wild trade: offers, declines, withdrawals)
writes those steps to a second Redis stream that nobody but their two parties may read
while the game runs. A seated caller's stream (service.game_stream.GameStream) follows
that log too and sends, among the public events, a frame for each step its seat is party
to, in the order the steps were decided: a step that followed public event `s` comes
after that event's frame and before event `s + 1`'s. Others' steps are skipped, and
nothing else of them (not their number, not their timing) reaches the frame.

Numbering. A step has no public number: its frame's id is `<s>.<k>`, `s` the public event
it followed and `k` how many private steps the seat is party to up to it (the same form
as the seat's ETag, `"<version>.<k>"`, so k never counts others' steps). Public frames
keep their plain ids. Resuming after `<s>.<k>` sends the public events after `s` and the
seat's steps after its k-th; after a plain `s`, its steps that followed event `s` or a
later one (those before were sent before event `s` was). Because the two logs are read
by separate readers, before a public event is sent the private log is read up to now
(one XRANGE), so a step decided before that event is never sent after it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson

from events import codec, keys
from events.record import WAITING, Record
from events.redact import redact
from service.frames import Frame

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def follows(rec: Record, player_id: str | None) -> bool:
    """Return True when a stream of `player_id` on this game follows its private log: a
    caller who holds a seat (or may still take one: the game is waiting) in a game whose
    rules and options keep one. Nobody else's stream even wakes for a private step (and
    api.streams beats on a fixed schedule, so a wake would not show either)."""
    if player_id is None or not rec.keeps_private_log:
        return False
    return rec.status == WAITING or rec.seat_of(player_id) is not None


class PrivateSteps:
    """One party's place in its game's private log."""

    def __init__(self, boot: Bootstrap, rec: Record, after: int, seen: int | None):
        self.boot, self.game_id, self.key = boot, rec.game_id, keys.game_private(rec.game_id)
        self.read = 0  # the private log's entries read so far (all seats')
        self.counted: dict[int, int] = {}  # per seat: how many steps it is party to, so far
        self.pending: list[tuple[dict[str, Any], int, int]] = []  # (envelope, seat, k)
        self.after, self.seen = after, seen
        self.sent_upto = after  # the public events sent (or skipped by the resume point)

    def start(self) -> str:
        """Read the private log as it stands; return the id to follow it after."""
        self._take(self.boot.store.read_private(self.game_id, 0))
        return f"{self.read}-0"

    def _take(self, envelopes: list[dict[str, Any]]) -> None:
        """Count new steps (in order, once each) and keep those a resume has not sent."""
        for env in envelopes:
            if env["private"] <= self.read:
                continue
            self.read = env["private"]
            for seat in env["visible_to"]:
                k = self.counted[seat] = self.counted.get(seat, 0) + 1
                if self.seen is not None and k <= self.seen:
                    continue  # sent before the resume (the dotted id counts them)
                if self.seen is None and env["seq"] < self.after:
                    continue  # followed an event sent before the resume point
                self.pending.append((env, seat, k))

    def news(self, fields: list[dict[bytes, bytes]]) -> None:
        """Take steps the shared reader of the private log handed over."""
        self._take([codec.loads(f[b"e"]) for f in fields])

    def catch_up(self) -> None:
        """Read what the private log holds past what was read (before a public event)."""
        self._take(self.boot.store.read_private(self.game_id, self.read))

    def frames(self, rec: Record, seat: int | None, upto: int) -> list[Frame]:
        """The frames of `seat`'s pending steps that followed public event `upto` or an
        earlier one (later ones wait for their event); others' steps are dropped."""
        out, keep = [], []
        for env, party, k in self.pending:
            if env["seq"] > upto:
                keep.append((env, party, k))
            elif party == seat:
                shown = redact(env, rec, seat)  # without the private log's number and links
                data = orjson.dumps(shown).decode()
                out.append(Frame(f"{env['seq']}.{k}", shown["type"], data))
        self.pending = keep
        return out

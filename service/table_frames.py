"""The `table` frames of a game stream that asked for them (`?with=table`): the whole table
as the caller's seat may see it now, so that a client draws from its stream and never reads
the game again after an event (docs/clients.md, "The table on your stream").

A `table` frame's data is `{"type": "table", "version", "game", "legal"}`: `game` is what
`GET /v1/games/{id}` answers that caller (its seat's view; a spectator's is the public
one; `secret` is always null), and `legal` what `GET .../legal` answers when the seat owes
a decision in an active game (else null). One follows the opening `owes` frame, the last
event of each append (after its `owes` frame, before a `receipt`) and, to a party, each
private step it is party to. The API presents them (api.present.table); this module
decides when one is sent and keeps each made once per process per version, private steps,
seat and language, shared as one string by every stream of that seat or of spectators.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import orjson

from events.record import Record
from service.frames import Frame, Shared

TABLE = "table"  # the event name of a table frame
TABLES = Shared(512)  # few and large: one per game version, seat and language


class Table(NamedTuple):
    """What a stream that sends table frames needs: how the API presents the table to a
    seat (None: a spectator), and in which language (part of what the frames share)."""

    present: Callable[[Record, int | None], dict[str, Any]]
    lang: str


def frame(table: Table, rec: Record, seat: int | None) -> Frame:
    """The table frame of `rec` for `seat`, made once per process and shared."""
    key = (rec.game_id, rec.version, rec.private, seat, table.lang)

    def make() -> Frame:
        data = {"type": TABLE, "version": rec.version, **table.present(rec, seat)}
        return Frame(None, TABLE, orjson.dumps(data).decode())

    return TABLES.get(key, make)

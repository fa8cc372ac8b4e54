"""An action admitted without a round trip of its own: `POST /actions` in one round trip.

A request's first round trip (service.limits.enter) reads its token's record, counts it
and loads the path's game. An action usually follows its caller's `GET /legal` on the
same connection, so this process already holds the game (events.repository: its newest
record and seed) and the token's record (service.tokens.known). Then nothing is read
first: the rules decide on the held record, and the append's script checks what the
first round trip would have read (the token's record is unchanged, the log's entry at
the expected version is the one held) and counts the call, before it writes (the
admission is the append's guard, events.recorder.Guard).

The held record may be behind the log, even from before its caller took a seat (a
process that showed the waiting game, then saw nothing of it while the others joined
through another process). So whatever is decided on it before the append counted the
call (a refusal by the rules, `not_seated`, a stale If-Match, a failed check) is not an
answer: `game_commands.act` raises Recheck, and the caller takes the usual first round
trip and decides again on the log as stored. Past the limit the append raises OverLimit,
with nothing written. One Redis only: on a cluster the token and counter keys lie on
other nodes than the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from events import keys, scripts
from events.repository import Loaded
from service import tokens
from service.limits import Count, Limit, token_counter

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


class Recheck(Exception):
    """What was decided on the held record is no answer: decide again the usual way."""


class OverLimit(Exception):
    """An admitted append's count is past its limit: nothing was written."""


@dataclass
class Admission:
    """The checks and count of an admitted append (an events.recorder.Guard): the token
    record under `token_key` must still be `token_record`, and the call is counted on
    `counter` within the limit. `count` is the call's count once the append made it."""

    token_key: str
    token_record: bytes
    counter: str
    limit: Limit
    count: Count | None = None

    script = scripts.APPEND_ADMITTED

    def keys(self) -> list[str]:
        return [self.token_key, self.counter]

    def args(self) -> list[Any]:
        return [self.token_record, self.limit[1] * 1000, self.limit[0]]

    def report(self, figures: list[Any]) -> None:
        self.count = Count(self.limit, int(figures[0]), int(figures[1]))


@dataclass
class Admitted:
    """An admitted action's caller, the game as held, and the append's admission."""

    player: dict[str, Any]
    game: Loaded
    admission: Admission


def admit(boot: Bootstrap, token: str, game_id: str, limit: Limit) -> Admitted | None:
    """Admit an action by `token` on `game_id` without a round trip if this process holds
    the game and knows the token (and runs guarded appends); else None."""
    if not boot.store.recorder.guards:
        return None
    digest = tokens.hash_token(token)
    known, held = tokens.known(digest), boot.store.held(game_id)
    if known is None or held is None:
        return None
    admission = Admission(keys.token(digest), known[0], token_counter(digest), limit)
    return Admitted(known[1], held[0], admission)

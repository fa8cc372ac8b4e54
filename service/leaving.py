"""Leaving a table that went quiet: abort a game before any opponent has moved, or claim
an untimed game nobody has acted in for a long time.

Both are commands on the game's log, decided by `events.decide` (`abort_early`, `claim`)
so an audit replays them: an abort is `game.Aborted` (scored as it stands, no league
points or rating change, like an operator's), a claim `game.Claimed` (the game ends
`abandoned`, scored as it stands, as RULINGS' abandoned tables).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from events import codec, decide
from service import loop
from service.game_log import GameLog, load
from service.loop import Outcome

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def abort(boot: Bootstrap, game_id: str, player_id: str) -> Outcome:
    """Abort the game for one of its seated players, before any other seat has moved."""
    load(boot, game_id)
    return loop.run(
        boot,
        GameLog(boot, game_id),
        lambda rec, rng: ("system", decide.abort_early(rec, player_id)),
        cause=f"abort:{player_id}",
        command={"type": "abort_early", "player": player_id, "rule": decide.RULE},
    )


def claim(boot: Bootstrap, game_id: str, player_id: str) -> Outcome:
    """End an idle untimed game for a seat that owes nothing (events.decide.claim)."""
    load(boot, game_id)
    at = codec.now_iso()
    return loop.run(
        boot,
        GameLog(boot, game_id),
        lambda rec, rng: decide.claim(rec, player_id, at),
        cause=f"claim:{player_id}",
        command={"type": "claim", "player": player_id, "at": at, "rule": decide.RULE},
    )

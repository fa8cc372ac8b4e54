"""Index the games stored before the lobby existed, once, when a worker starts.

Games created since the lobby landed are indexed as they change (service.lobby,
service.inbox). Older ones are in `mf:games` but not in the lobby's summaries, nor in
their players' history (`player=` filter, `GET /v1/players/me/games`) or game counts
(profiles). `run` finds them and indexes each as it stands now. The lobby's script
refuses a version it already holds, so of two workers starting together only one counts
a game into its players' profiles.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from events import keys
from events.record import CANCELLED, FINISHED
from events.recording import Writes
from service import lobby

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

logger = logging.getLogger(__name__)
BATCH = 500


def missing(boot: Bootstrap) -> bool:
    """Return True if some stored game may be missing from the lobby (a cheap check)."""
    return boot.lobby.count() > boot.lobby.summarized()


def run(boot: Bootstrap) -> int:
    """Index every stored game the lobby lacks; return how many it indexed."""
    if not missing(boot):
        return 0
    done = sum(_index(boot, batch) for batch in boot.lobby.every(BATCH))
    if done:
        logger.warning("indexed %d games stored before the lobby existed", done)
    return done


def _index(boot: Bootstrap, game_ids: list[str]) -> int:
    known = boot.lobby.summaries(game_ids)
    done = 0
    for game_id in (g for g, summary in zip(game_ids, known, strict=True) if summary is None):
        rec = boot.store.load(game_id).record
        if rec.version == 0 or not lobby.index(boot, rec) or rec.status == CANCELLED:
            continue
        then = Writes()  # the players' indexes, as an append's follow-up writes them
        for s in rec.seats:
            then.zadd(keys.player_history(s.player), {game_id: lobby.created_ms(rec)})
            if rec.status == FINISHED:
                then.hincrby(keys.player_played(s.player), rec.ruleset, 1)
        boot.store.recorder.write(then)
        done += 1
    return done

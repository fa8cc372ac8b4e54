"""The seats' secrets revealed before play (seed rule 2), each a command on `service.loop`:
a player's reveal (`reveal`; the last committed seat to reveal starts the game), and the
worker's job at the window's end that starts the game without the secrets not revealed
(`close_reveals`).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from events import codec, seating
from games.base import RuleViolation
from service import league_seeds, loop
from service.errors import Invalid
from service.game_log import REVEAL_KEY, GameLog
from service.loop import Outcome
from service.ports import Status

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def reveal(boot: Bootstrap, game_id: str, player_id: str, secret: str) -> Outcome:
    """Reveal the seat's secret (64 lowercase hex digits) while the game's reveals are open;
    a secret that does not match the seat's commitment is refused, naming `seat_secret`.
    The last committed seat to reveal starts the game."""
    command = {"type": "reveal", "player": player_id, "secret": secret}
    try:
        done = loop.run(
            boot,
            GameLog(boot, game_id, body=secret),
            lambda rec, rng: seating.reveal(rec, player_id, secret, rng),
            cause=f"reveal:{player_id}",
            idem=f"reveal:{player_id}:{secret[:32]}",  # another secret: already_revealed
            command=command,
        )
    except RuleViolation as refused:
        if refused.code != "reveal_mismatch":
            raise
        raise Invalid(
            "reveal_mismatch", str(refused), errors={"seat_secret": [str(refused)]}
        ) from None
    if done.record.league:  # the member's next table asks for the chain's link before
        league_seeds.advance(boot, done.record.league["id"], player_id, secret)
    return done


def close_reveals(boot: Bootstrap, game_id: str) -> Status:
    """Start a game whose reveals are still open once their window is over, without the
    secrets not revealed (a worker's job at the window's end): APPLIED, NOOP (all were
    in, or the game is gone), or EARLY if the window has not closed (the job stays due)."""
    rec = boot.store.load(game_id).record
    closes = rec.reveal_deadline()
    if closes is None:
        return Status.NOOP
    if codec.parse_time(closes).timestamp() > time.time():
        boot.scheduler.reveals_close(game_id, closes)
        return Status.EARLY
    done = loop.run(
        boot,
        GameLog(boot, game_id, body=REVEAL_KEY),
        lambda r, rng: ("system", seating.close_reveals(r, rng)),
        cause=f"close-reveals-{game_id}",
        idem="system:close-reveals",
        command={"type": "close_reveals"},
    )
    return Status.APPLIED if done.created else Status.NOOP

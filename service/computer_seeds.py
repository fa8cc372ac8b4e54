"""A computer seat's part in the game's randomness (docs/fairness.md, "Seats'
randomness"): it commits and reveals like any seat. Its secret is drawn from the
operating system's CSPRNG when it is seated and kept beside the game's seed
(stores.computer_seats); when the reveals open, `computer|<game>|<seat>-seat-seeds` is
due at once in the deadline index (service.game_log) and a worker reveals it through the
same command as a person's reveal.

The server runs these seats, so their secrets add nothing against the operator: they
keep the computer seats to the protocol every seat follows, and the log shows them."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from games.rng import seat_commitment
from service import seed_reveals
from service.game_log import computer_reveals
from service.ports import SEAT_SEEDS, Status

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def commit(boot: Bootstrap, game_id: str, player_id: str) -> str:
    """Draw and keep the secret of a computer player about to be seated; return its
    commitment."""
    secret = os.urandom(32)
    boot.computer_seats.keep_secret(game_id, player_id, secret)
    return seat_commitment(secret)


def reveal(boot: Bootstrap, game_id: str, seat: int) -> Status:
    """Reveal computer seat `seat`'s secret while the game's reveals are open: APPLIED,
    or NOOP (revealed already, the reveals closed, no secret kept)."""
    rec = boot.store.load(game_id).record
    if f"{seat}-{SEAT_SEEDS}" not in computer_reveals(rec):
        return Status.NOOP
    player = next(s.player for s in rec.seats if s.seat == seat)
    kept = boot.computer_seats.secret(game_id, player)
    if kept is None:
        return Status.NOOP
    seed_reveals.reveal(boot, game_id, player, kept.hex())
    return Status.APPLIED

"""Ready phases that nobody will resolve: the sweep that repairs a crash between an append
and its scheduling (docs/reliability.md, "Scheduling after a crash").

The append that completes a simultaneous phase (the last sealed bid, the last secret
production) and the queueing of the phase's resolution (service.game_log.schedule) are
two steps. If the API process dies or loses Redis between them, the append stands and
nothing is queued: a retry with the same Idempotency-Key schedules it again
(game_log.reschedule), but a caller that never retries would leave the game with nobody
owing anything. Every `STALLED_SWEEP_S` one worker's sweeper walks the active games that
have nothing in the deadline index (so, with deadlines, only games nobody owes anything
in) and has every ready phase that the index does not hold resolved. A phase that turned
ready within the last `STALLED_AFTER_S` is left to the append that made it ready; one
queued twice is resolved once (the resolution's job id is its idempotency key).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from events import codec
from events.record import ACTIVE, Record

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

STALLED_AFTER_S = 5  # a phase ready for less long is the append's own to schedule


class Sweep:
    """One worker's part: when its turn comes (at most one sweep of all the workers per
    `every_s`), it walks the active games a batch per call, between its deadline sweeps,
    so a long walk never holds up a deadline."""

    def __init__(self, boot: Bootstrap, every_s: float, batch: int = 50):
        self.boot, self.every_s, self.batch = boot, every_s, batch
        self.todo: list[str] = []
        self.looked = float("-inf")  # monotonic time of the last look at whose turn it is

    def step(self, now: float, monotonic: float) -> list[tuple[str, str]]:
        """Look at the next batch of the walk (starting one when it is this worker's
        turn); return the (game, phase) pairs whose resolution it queued."""
        if not self.todo and monotonic - self.looked >= self.every_s:
            self.looked = monotonic
            if take_turn(self.boot, self.every_s):
                self.todo = candidates(self.boot)
        batch, self.todo = self.todo[: self.batch], self.todo[self.batch :]
        return [queued for game_id in batch if (queued := repair(self.boot, game_id, now))]


def candidates(boot: Bootstrap) -> list[str]:
    """The active games with nothing in the deadline index: a game whose player owes a
    timed decision, or whose phase is queued, moves on without help; only the others
    (untimed games too) need a look."""
    busy = boot.scheduler.waited_on()
    return [game_id for game_id in boot.lobby.active() if game_id not in busy]


def take_turn(boot: Bootstrap, every_s: float) -> bool:
    """Return True for the one sweeper (of all the workers) whose turn it is to sweep:
    at most one sweep per `every_s` seconds."""
    return boot.limits.take_sweep_turn(every_s)


def stalled_phase(rec: Record, now: float) -> str | None:
    """Return the phase of an active game that has been ready for `STALLED_AFTER_S` or
    more (None if there is none): a pure decision on the record and the time."""
    if rec.status != ACTIVE or (phase := rec.game.ready(rec.state)) is None:
        return None
    last = codec.parse_time(rec.last_at).timestamp() if rec.last_at else 0.0
    return phase if now - last >= STALLED_AFTER_S else None


def repair(boot: Bootstrap, game_id: str, now: float) -> tuple[str, str] | None:
    """Queue the resolution of the game's stalled phase if nothing will resolve it; return
    (game, phase) when it did."""
    phase = stalled_phase(boot.store.load(game_id).record, now)
    if phase is None or boot.scheduler.pending("resolve", game_id, phase):
        return None
    boot.scheduler.resolution(game_id, phase)
    return game_id, phase

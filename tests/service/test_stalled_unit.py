"""The sweep that repairs a ready phase nobody queued (service.stalled) on in-memory
ports (the unit tier): a Black Market production whose last seal was appended but whose
resolution was never queued (the process died in between) is queued by one worker's
sweep once it has been ready for STALLED_AFTER_S, once, and only one worker sweeps per
period."""

from __future__ import annotations

import random
import time

from service import stalled
from tests.service.tables_setup import started
from tests.service.test_event_streams_unit import produced


def stuck(boot, monkeypatch) -> tuple[str, str]:
    """A Black Market game whose three seats sealed their production while the queueing
    of its resolution was lost: (game, ready phase)."""
    rec = started(boot, "black-market", trade="wild")
    with monkeypatch.context() as lost:
        lost.setattr(boot.scheduler, "resolution", lambda game_id, key: None)
        produced(boot, rec, random.Random(1))
    rec = boot.store.load(rec.game_id).record
    assert rec.owed() == [] and rec.status == "active"  # nobody owes: stuck without help
    return rec.game_id, rec.game.ready(rec.state)


def resolutions(boot, game_id):
    return [a for a in boot.scheduler.asked if a[:2] == ("resolution", game_id)]


def test_a_phase_nobody_queued_is_queued_once_after_it_waited_long_enough(boot, monkeypatch):
    gid, phase = stuck(boot, monkeypatch)
    assert phase and gid in stalled.candidates(boot)
    now = time.time()
    assert stalled.repair(boot, gid, now) is None  # just ready: the append's own to queue
    assert resolutions(boot, gid) == []
    later = now + stalled.STALLED_AFTER_S
    assert stalled.repair(boot, gid, later) == (gid, phase)
    assert resolutions(boot, gid) == [("resolution", gid, phase)]
    assert gid not in stalled.candidates(boot)  # queued: the next sweeps pass it by
    assert stalled.repair(boot, gid, later + 60) is None  # and queue it no more
    assert len(resolutions(boot, gid)) == 1


def test_a_game_that_moves_on_by_itself_is_left_alone(boot):
    playing = started(boot)  # Goblin Market: one seat owes at a time, no phase to resolve
    sealed = started(boot, "black-market", trade="wild")
    produced(boot, sealed, random.Random(1))  # its resolution queued as it should be
    assert len(resolutions(boot, sealed.game_id)) == 1
    assert stalled.candidates(boot) == [playing.game_id]  # untimed: looked at, but
    assert stalled.repair(boot, playing.game_id, time.time() + 3600) is None  # nothing due
    assert resolutions(boot, playing.game_id) == []


def test_one_worker_sweeps_per_period_a_batch_at_a_time(boot, monkeypatch):
    clock = [1000.0]
    boot.limits.clock = lambda: clock[0]  # the workers' shared turn, on this clock
    stuck_games = dict(stuck(boot, monkeypatch) for _ in range(2))
    now = time.time() + stalled.STALLED_AFTER_S
    one, other = stalled.Sweep(boot, 60, batch=1), stalled.Sweep(boot, 60, batch=1)
    first = one.step(now, monotonic=0)
    assert other.step(now, monotonic=0) == []  # not its turn: one sweep per period
    second = one.step(now, monotonic=1)  # the rest of the walk, a batch per step
    assert len(first) == len(second) == 1
    assert sorted(first + second) == sorted(stuck_games.items())
    assert one.step(now, monotonic=2) == []  # walked; its next look comes a period later
    clock[0] += 60
    assert other.step(now, monotonic=61) == []  # its turn now: nothing is stuck any more
    for gid in stuck_games:
        assert len(resolutions(boot, gid)) == 1

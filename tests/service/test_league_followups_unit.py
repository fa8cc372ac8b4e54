"""A league event whose follow-up was cut short, on in-memory ports
(service.league_followups): the request dies right after the league's append, before the
games change. The follow-up then waits in the deadline index; the worker's job
(workers.jobs.league_followup) or the request retried with its Idempotency-Key finishes
it, each change made once however often it runs, and a follow-up run late does not undo
what happened since. (The same with real processes killed: tests/leagues/, slow tier.)"""

from __future__ import annotations

import pytest

from service import league_followups, league_lifecycle, league_queries, league_remedies
from service.bootstrap import Bootstrap
from tests.service.league_setup import game_of, started
from tests.service.tables_setup import written
from tests.support.memory_boot import memory_boot
from workers import jobs

SUB = {"id": "s1", "name": "S1"}


class Killed(BaseException):
    """The process dying: nothing catches it."""


@pytest.fixture
def boot(monkeypatch) -> Bootstrap:
    deps = memory_boot()
    monkeypatch.setattr(jobs, "_deps", [deps])  # the worker's jobs run on these ports
    return deps


def killed_after_append(monkeypatch, command, *args) -> None:
    """Run a league command in a process that dies the moment its append has returned."""

    def die(*_):
        raise Killed

    with monkeypatch.context() as m:
        m.setattr(league_followups, "follow", die)
        with pytest.raises(Killed):
            command(*args)


def waiting(boot: Bootstrap, lid: str) -> str:
    """The follow-up of the league's newest event, still in the deadline index."""
    seq = str(league_queries.load(boot, lid).version)
    assert boot.scheduler.pending(league_followups.JOB, lid, seq)
    return seq


# each remedy, and what its follow-up writes in the member's game
REMEDIES = {
    "substitute": (lambda b, lid: league_remedies.substitute(b, lid, "m1", SUB, "op"), "SeatTaken"),
    "pause_table": (lambda b, lid: league_remedies.pause_table(b, lid, 1, 1, "op"), "Paused"),
    "withdraw": (
        lambda b, lid: league_lifecycle.withdraw(b, lid, "m1", "organizer", "op"),
        "SeatResigned",
    ),
    "cancel": (lambda b, lid: league_lifecycle.cancel(b, lid, "op"), "Ended"),
}


@pytest.mark.parametrize("what", sorted(REMEDIES))
def test_a_follow_up_cut_short_is_finished_once_by_the_worker(boot, monkeypatch, what):
    remedy, change = REMEDIES[what]
    lid = started(boot, monkeypatch)
    gid = game_of(boot, lid)
    games_before = written(boot, gid)
    killed_after_append(monkeypatch, remedy, boot, lid)
    seq = waiting(boot, lid)  # the league's event is written, the game untouched
    assert written(boot, gid) == games_before
    assert jobs.league_followup(lid, seq) == "applied"
    assert not boot.scheduler.pending(league_followups.JOB, lid, seq)  # off the index
    after = written(boot, gid)
    assert [k for k in after if k.endswith(change)] == [f"game.{change}"]
    assert jobs.league_followup(lid, seq) == "applied"  # a second worker, a late sweep
    assert written(boot, gid) == after
    rec = boot.store.load(gid).record
    if what == "substitute":
        assert rec.seat_of(SUB["id"]) is not None and rec.seat_of("m1") is None
    if what == "cancel":
        assert rec.result["reason"] == "aborted"


def test_the_request_retried_with_its_key_finishes_the_follow_up_once(boot, monkeypatch):
    lid = started(boot, monkeypatch)
    gid = game_of(boot, lid)
    retry = ("key-1", {"player": "m1", "substitute": SUB})
    remedy = league_remedies.substitute
    killed_after_append(monkeypatch, remedy, boot, lid, "m1", SUB, "op", retry)
    seq = waiting(boot, lid)
    lg = remedy(boot, lid, "m1", SUB, "op", retry)  # the client tries again
    assert lg.version == int(seq) and lg.substitutes == {"s1": "m1"}  # appended once
    assert boot.store.load(gid).record.seat_of(SUB["id"]) is not None
    assert not boot.scheduler.pending(league_followups.JOB, lid, seq)
    remedy(boot, lid, "m1", SUB, "op", retry)
    assert written(boot, gid).count("game.SeatTaken") == 1


def test_a_pause_followed_up_after_the_table_resumed_leaves_its_clock_running(boot, monkeypatch):
    lid = started(boot, monkeypatch)
    gid = game_of(boot, lid)
    killed_after_append(monkeypatch, league_remedies.pause_table, boot, lid, 1, 1, "op")
    paused = waiting(boot, lid)
    league_remedies.resume_table(boot, lid, 1, 1, "op")  # the organizer changes their mind
    assert boot.store.load(gid).record.paused_at is None
    assert jobs.league_followup(lid, paused) == "applied"  # the sweeper, late
    assert boot.store.load(gid).record.paused_at is None
    assert "game.Paused" not in written(boot, gid)


def test_a_withdrawal_followed_up_after_the_member_was_reinstated_resigns_nothing(
    boot, monkeypatch
):
    lid = started(boot, monkeypatch)
    gid = game_of(boot, lid)
    withdraw = league_lifecycle.withdraw
    killed_after_append(monkeypatch, withdraw, boot, lid, "m1", "organizer", "op")
    withdrawn = waiting(boot, lid)
    league_remedies.reinstate(boot, lid, "m1", "op")
    assert jobs.league_followup(lid, withdrawn) == "applied"  # the sweeper, late
    assert "game.SeatResigned" not in written(boot, gid)
    rec = boot.store.load(gid).record
    assert rec.status == "active" and rec.seat_of("m1") is not None

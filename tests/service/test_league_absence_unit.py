"""Withdrawal for absence on in-memory ports (service.league_absence): a member whose
decisions time out as often as the league allows is withdrawn (reason absence) once a
default is applied (the expiry job the worker runs), and only once."""

from __future__ import annotations

from service import deadline_commands, league_absence, league_queries
from tests.service.league_setup import game_of, later, started


def test_a_member_who_times_out_is_withdrawn_for_absence(boot, monkeypatch):
    lid = started(boot, monkeypatch, withdraw_after_timeouts=1)
    gid = game_of(boot, lid)
    assert league_absence.check(boot, lid, {"m0", "m1", "m2"}) == []  # nobody timed out
    key = next(a[2] for a in boot.scheduler.asked if a[0] == "expiry" and a[1] == gid)
    later(monkeypatch, 700)  # past the 600 s decision timeout
    deadline_commands.expire(boot, gid, key)
    lg = league_queries.load(boot, lid)
    gone = {p for p, why in lg.why_withdrawn.items() if why == "absence"}
    assert gone and gone <= {"m0", "m1", "m2"}
    assert league_absence.check(boot, lid, gone) == []  # withdrawn once

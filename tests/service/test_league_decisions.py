"""League decisions as pure functions of the league and the time (`service.league_decisions`):
no Redis, no clock; the league folded from envelopes written here."""

from __future__ import annotations

import pytest

from leagues.record import League, fold_all
from service import league_decisions as decisions
from service.errors import Conflict
from service.ports import Status

START = 2_000_000_000.0  # round 1 is due then
SETTINGS = {
    "name": "l",
    "ruleset": "goblin-market",
    "options": {},
    "table_min": 3,
    "table_max": 3,
    "rounds": 2,
    "start_at": decisions.iso(START),
    "cadence_s": 100,
    "decision_timeout_s": 30,
    "withdraw_after_timeouts": 0,
    "points": [3, 1, 0],
    "late_join_until_round": 0,
    "bye_points": None,
    "operator": "p_op",
    "seed": "00" * 16,
}


def league(*events: tuple[str, dict]) -> League:
    envs = [
        {"seq": i, "hash": f"h{i}", "at": decisions.iso(START - 500), "type": t, "data": d}
        for i, (t, d) in enumerate([("league.Created", SETTINGS), *events], start=1)
    ]
    return fold_all(League("l_x"), envs)


def member(p: str) -> tuple[str, dict]:
    return ("league.MemberJoined", {"player": p, "name": p, "by": "self"})


def test_joining_is_decided_on_the_time_given_not_the_clock():
    lg = league(member("p_a"))
    joined = decisions.join(lg, {"id": "p_b", "name": "b"}, "self", START - 1)
    assert [e.type for e in joined] == ["league.MemberJoined"]
    with pytest.raises(Conflict) as refused:
        decisions.join(lg, {"id": "p_b", "name": "b"}, "self", START)
    assert refused.value.code == "league_started"


def test_a_round_is_early_then_due_and_paused_holds_it():
    lg = league(*(member(p) for p in ("p_a", "p_b", "p_c")))
    assert decisions.round_due(lg, 1, START - 0.5) is Status.EARLY
    assert decisions.round_due(lg, 1, START) is None
    assert decisions.round_due(lg, 3, START) is Status.NOOP  # no such round
    started = decisions.start_round(lg, 1, {})
    assert (
        started[-1].type == "league.RoundStarted"
        and started[-1].data["due"] == SETTINGS["start_at"]
    )
    paused = league(("league.Paused", {"by": "p_op"}))
    assert decisions.round_due(paused, 1, START + 5) is Status.PAUSED


def test_resuming_reschedules_from_the_time_given():
    lg = league(("league.Paused", {"by": "p_op"}))
    early = decisions.resume(lg, "p_op", START - 100)[0].data
    assert early["from"] == SETTINGS["start_at"]  # round 1 not due yet: its time stands
    late = decisions.resume(lg, "p_op", START + 7)[0].data
    assert late == {"by": "p_op", "round": 1, "from": decisions.iso(START + 7)}

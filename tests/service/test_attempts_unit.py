"""Refused attempts, the stalled-games sweep and counted calls on in-memory ports (the
unit tier): a seated player's refused action is kept for disputes, its action shown to
its author only while the game runs; one sweeper at a time looks at the active games
nothing waits on; a counter refuses past its limit until its window ends
(service.attempts, service.stalled, service.limits)."""

from __future__ import annotations

import time

import pytest

from games.base import InvalidAction, RuleViolation
from service import attempts, limits, stalled
from stores.memory.limits import MemoryLimits
from tests.service.tables_setup import ANN, BOB, CY, started, table
from tests.support.memory_boot import memory_boot


@pytest.fixture
def boot():
    return memory_boot()


def test_a_seated_players_refused_action_is_kept_and_its_action_shown_to_it_only(boot):
    rec = started(boot)
    bid = {"type": "bid", "amount": 3}
    refused = RuleViolation("not your turn", code="not_your_turn")
    attempts.record(boot, rec, BOB["id"], bid, refused, time.time())
    attempts.record(boot, rec, "p_stranger", bid, refused, time.time())  # not seated
    attempts.record(boot, rec, CY["id"], bid, InvalidAction("no such action"), time.time())
    mine = attempts.read(boot, rec, BOB["id"])
    assert [(e["player"], e["code"], e["action"]) for e in mine] == [
        (BOB["id"], "not_your_turn", bid)
    ]
    assert "action" not in attempts.read(boot, rec, ANN["id"])[0]


def test_one_sweeper_at_a_time_looks_at_the_active_games_nothing_waits_on(boot):
    rec = started(boot)
    waiting_one, _ = table(boot, creator={"id": "p_dee", "name": "Dee"})
    assert stalled.candidates(boot) == [rec.game_id]  # untimed: no deadline waits on it
    boot.scheduler.resolution(rec.game_id, "bids")
    assert stalled.candidates(boot) == [] and waiting_one.status == "waiting"
    assert stalled.take_turn(boot, 60) and not stalled.take_turn(boot, 60)


def test_a_counter_refuses_past_its_limit_until_its_window_ends():
    clock = [1000.0]
    boot = memory_boot(limits=MemoryLimits(clock=lambda: clock[0]))
    counts = [limits.count(boot, "c", (2, 60)) for _ in range(3)]
    assert [c.over for c in counts] == [False, False, True]
    assert counts[-1].remaining == 0 and counts[-1].reset_s == 60
    clock[0] += 60
    assert not limits.count(boot, "c", (2, 60)).over

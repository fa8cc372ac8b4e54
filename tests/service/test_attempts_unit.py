"""Refused attempts, the stalled-games sweep and counted calls on in-memory ports (the
unit tier): a seated player's refused action is kept for disputes (a move for a decision
defaulted meanwhile refused `deadline_passed`), its action shown to its author only while
the game runs; one sweeper at a time looks at the active games nothing waits on; a
counter refuses past its limit until its window ends (service.attempts, service.stalled,
service.limits)."""

from __future__ import annotations

import random
import time

import pytest

from events.codec import parse_time
from events.refusals import StaleVersion
from games.base import InvalidAction, RuleViolation
from service import attempts, deadline_commands, game_commands, limits, stalled
from service.ports import Status
from stores.memory.limits import MemoryLimits
from tests.service.league_setup import later
from tests.service.tables_setup import ANN, BOB, CY, started, table
from tests.service.test_use_cases_unit import seated, turn
from tests.support.memory_boot import memory_boot


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


def defaulted(boot, monkeypatch):
    """A timed game whose first owed decision was defaulted: (game before, the seat's
    player, the action it meant for that decision, the decision's key and deadline)."""
    rec = seated(boot, ["ann", "bob", "cy"], timeout=60)
    owed = rec.owed()[0]
    player, action = turn(rec, random.Random(2))
    later(monkeypatch, 3600)
    assert deadline_commands.expire(boot, rec.game_id, owed.key) is Status.APPLIED
    return rec, player, action, owed.key, rec.deadline(owed.key)


def test_a_move_for_a_defaulted_decision_is_refused_deadline_passed_and_kept(boot, monkeypatch):
    rec, player, action, key, deadline = defaulted(boot, monkeypatch)
    with pytest.raises(RuleViolation) as refused:
        game_commands.act(boot, rec.game_id, player, action, "late", None)
    late = refused.value
    assert late.code == "deadline_passed" and deadline in str(late)
    assert (late.extra["decision"], late.extra["deadline"]) == (key, deadline)
    arrived = parse_time(late.extra["arrived_at"]).timestamp()
    assert arrived > parse_time(deadline).timestamp()
    now = boot.store.load(rec.game_id).record
    attempts.record(boot, now, player, action, late, arrived)
    (kept,) = attempts.read(boot, now, player)
    assert (kept["code"], kept["decision"], kept["deadline"]) == ("deadline_passed", key, deadline)
    assert kept["version"] == now.version and kept["action"] == action


def test_a_mover_who_saw_the_default_moved_since_or_was_never_defaulted_is_not_late(
    boot, monkeypatch
):
    rec, player, action, _, deadline = defaulted(boot, monkeypatch)
    now = boot.store.load(rec.game_id).record
    refused = RuleViolation("not your turn", code="not_your_turn")
    before = parse_time(deadline).timestamp() - 1  # sent in time, decided after the default
    seat = now.seat_of(player)
    assert attempts.late(boot, now, seat, refused, before, None) is refused
    with pytest.raises(RuleViolation) as seen:  # its If-Match is the game after the default
        game_commands.act(boot, rec.game_id, player, action, "seen", now.version)
    assert seen.value.code == "not_your_turn"
    owing = {o.seat for o in now.owed()}
    idle = next(s.player for s in now.seats if s.player != player and s.seat not in owing)
    with pytest.raises(RuleViolation) as never:
        game_commands.act(boot, rec.game_id, idle, action, "idle", None)
    assert never.value.code == "not_your_turn"
    rnd, n = random.Random(4), 0
    while True:  # play on until the defaulted seat has moved since its default
        who, move = turn(boot.store.load(rec.game_id).record, rnd)
        game_commands.act(boot, rec.game_id, who, move, f"m{n}", None)
        n += 1
        if who == player and boot.store.load(rec.game_id).record.owed()[0].seat != seat:
            break
    with pytest.raises(RuleViolation) as moved:
        game_commands.act(boot, rec.game_id, player, action, "moved", None)
    assert moved.value.code == "not_your_turn"


def test_a_stale_if_match_is_kept_as_version_mismatch_and_other_errors_not_at_all(boot):
    rec = started(boot)
    bid = {"type": "bid", "amount": 3}
    attempts.record(boot, rec, BOB["id"], bid, StaleVersion(1, rec.version), time.time())
    attempts.record(boot, rec, BOB["id"], bid, ValueError("not a refusal"), time.time())
    attempts.record(boot, None, BOB["id"], bid, StaleVersion(1, 2), time.time())  # no game
    assert [e["code"] for e in attempts.read(boot, rec, BOB["id"])] == ["version_mismatch"]

"""Every game ends: abandoned tables, resigning, aborting (RULINGS.md "All games"), for
every ruleset, and the audit accepts each such game."""

from __future__ import annotations

import random

import pytest

import games
from events import audit
from games.base import RuleViolation
from tests.events.log_driver import Log

RULESETS = sorted(games.REGISTRY)


def _size(ruleset: str) -> int:
    return max(3, games.get(ruleset).min_players)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_table_whose_seats_all_miss_two_decisions_in_a_row_ends_abandoned(ruleset):
    log = Log(ruleset, _size(ruleset))
    for _ in range(200):
        if log.rec.status == "finished":
            break
        log.expire_next()
    assert log.rec.status == "finished"
    assert log.rec.result["reason"] == "abandoned"
    assert all(n >= 2 for n in log.rec.defaults_in_row)
    assert sorted(s["seat"] for s in log.rec.result["standings"]) == list(range(_size(ruleset)))
    assert audit.verify(log.bundle()).ok, audit.verify(log.bundle()).to_text()


def test_one_seat_acting_in_time_keeps_the_table_alive():
    log = Log("goblin-market", 3)
    pick = random.Random(3)
    for _ in range(12):  # seat 0 answers each of its decisions, the others never do
        owed = log.rec.owed()
        if owed and owed[0].seat == 0:
            log.act_randomly(pick, {0})
        else:
            log.expire_next()
    assert log.rec.status == "active"
    assert log.rec.defaults_in_row[0] == 0 and min(log.rec.defaults_in_row[1:]) >= 2


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_resigned_seat_plays_its_defaults_at_once_and_is_placed_last(ruleset):
    n = _size(ruleset)
    log = Log(ruleset, n)
    pick = random.Random(7)
    for _ in range(5):
        log.act_randomly(pick)
    gone = log.rec.order[-1]
    envs = log.run({"type": "resign", "player": f"p{gone}"})
    assert envs[0]["type"] == "game.SeatResigned" and envs[0]["data"] == {"seat": gone}
    assert log.rec.resigned == frozenset({gone})
    steps = 0
    while log.rec.status == "active":
        assert all(o.seat != gone for o in log.rec.owed())  # never waits for the resigned
        log.act_randomly(pick)
        steps += 1
        assert steps < 5000
    result = log.rec.result
    assert result["reason"] == "completed" and result["resigned"] == [gone]
    last = max(s["place"] for s in result["standings"])
    assert next(s for s in result["standings"] if s["seat"] == gone)["place"] == last
    assert all(s["place"] < last for s in result["standings"] if s["seat"] != gone)
    assert gone not in result["winners"]
    with pytest.raises(RuleViolation):
        log.run({"type": "act", "player": f"p{gone}", "action": {"type": "pass"}})
    report = audit.verify(log.bundle())
    assert report.ok, report.to_text()


def test_several_resigned_seats_share_the_last_places_by_score():
    log = Log("gobcon", 4)
    log.run({"type": "resign", "player": "p0"})
    log.run({"type": "resign", "player": "p1"})
    assert log.rec.status == "active"  # two seats still play
    log.run({"type": "resign", "player": "p2"})
    result = log.rec.result
    assert result["reason"] == "resigned"  # one seat left: nobody to play against
    places = {s["seat"]: s["place"] for s in result["standings"]}
    assert places[3] == 1 and result["winners"] == [3]
    assert sorted(places[s] for s in (0, 1, 2))[0] == 2  # all scores 0 at setup: they share
    assert audit.verify(log.bundle()).ok


def test_resigning_twice_or_after_the_end_is_refused():
    log = Log("goblin-market", 3)
    log.run({"type": "resign", "player": "p1"})
    with pytest.raises(RuleViolation) as again:
        log.run({"type": "resign", "player": "p1"})
    assert again.value.code == "already_resigned"
    log.run({"type": "abort", "by": "p_op"})
    with pytest.raises(RuleViolation) as over:
        log.run({"type": "resign", "player": "p2"})
    assert over.value.code == "game_over"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_aborted_game_ends_at_once_with_reason_aborted(ruleset):
    log = Log(ruleset, _size(ruleset))
    log.act_randomly(random.Random(1))
    envs = log.run({"type": "abort", "by": "p_op"})
    assert [e["type"] for e in envs] == ["game.Aborted", "game.Ended"]
    assert log.rec.result["reason"] == "aborted"
    assert audit.verify(log.bundle()).ok


def test_a_normal_end_says_completed():
    log = Log("goblin-market", 3)
    pick = random.Random(11)
    while log.rec.status == "active":
        log.act_randomly(pick)
    assert log.rec.result["reason"] == "completed" and log.rec.result["resigned"] == []
    assert audit.verify(log.bundle()).ok


def test_a_snapshot_keeps_resigned_seats_absences_and_extended_deadlines():
    from events import snapshot

    log = Log("black-market", 3)
    log.expire_next()  # every seat's first production runs out
    log.run({"type": "resign", "player": "p2"})
    key = log.rec.owed()[0].key
    old = log.rec.deadline(key)
    log.run(
        {
            "type": "extend",
            "key": key,
            "old": old,
            "new": "2031-01-01T00:00:00.000Z",
            "reason": "outage",
        }
    )
    assert log.rec.deadline(key) == "2031-01-01T00:00:00.000Z"
    back = snapshot.decode(snapshot.encode(log.rec), log.rec.version)
    assert back is not None and back.resigned == frozenset({2})
    assert back.defaults_in_row == log.rec.defaults_in_row
    assert back.deadline(key) == "2031-01-01T00:00:00.000Z"
    assert audit.verify(log.bundle()).checks[0].ok


def test_the_audit_refuses_a_default_applied_before_an_extended_deadline():
    log = Log("goblin-market", 3)
    key = log.rec.owed()[0].key
    log.run(
        {
            "type": "extend",
            "key": key,
            "old": log.rec.deadline(key),
            "new": "2031-01-01T00:00:00.000Z",
            "reason": "outage",
        }
    )
    log.expire_next()  # a day later: past the old deadline, a year before the new one
    report = audit.verify(log.bundle())
    assert not report.ok and "before its deadline 2031-01-01" in report.to_text()

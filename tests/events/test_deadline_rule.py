"""The deadline rule, as the pure functions it is (`events.deadlines`): what an expiry does,
and the tolerances a game is played and judged under. No Redis, no clock; a game's log
written in memory (tests/events/log_driver.py)."""

from __future__ import annotations

from events import deadlines
from events.codec import iso, parse_time
from events.deadlines import Verdict
from service.ports import Status
from tests.events.log_driver import Log


def game() -> tuple[Log, str, float]:
    """A 3-seat Goblin Market game on 60 s deadlines; its first decision and deadline."""
    log = Log("goblin-market", 3, timeout=60)
    key = log.rec.owed()[0].key
    return log, key, parse_time(log.rec.deadline(key)).timestamp()


def facts(api: float | None = None, spans=(), grace: float = 60, down: float = 15):
    return deadlines.Facts(api, tuple(spans), grace, down)


def test_a_decision_past_its_deadline_with_the_api_up_since_is_applied():
    log, key, due = game()
    assert deadlines.plan(log.rec, key, due + 1, facts()).status is Verdict.APPLIED  # no API
    assert deadlines.plan(log.rec, key, due + 1, facts(api=due + 0.5)).status is Verdict.APPLIED


def test_a_decision_not_due_yet_is_looked_at_again_at_its_deadline():
    log, key, due = game()
    plan = deadlines.plan(log.rec, key, due - 5, facts(api=due - 5.1))
    assert plan.status is Verdict.EARLY and plan.deadline == log.rec.deadline(key)
    assert Status(plan.status).still_due  # the job keeps its member (service.ports.Status)


def test_a_decision_the_api_has_not_been_up_since_is_postponed():
    log, key, due = game()
    soon = deadlines.plan(log.rec, key, due + 0.1, facts(api=due - 0.1))
    assert soon.status is Verdict.POSTPONED
    assert parse_time(soon.deadline).timestamp() == due + 0.1 + deadlines.API_BEAT_S
    down = deadlines.plan(log.rec, key, due + 20, facts(api=due - 1))
    assert parse_time(down.deadline).timestamp() == due + 20 + deadlines.POSTPONE_S


def test_a_deadline_inside_an_outage_or_its_grace_gets_a_fresh_one():
    log, key, due = game()
    inside = deadlines.plan(log.rec, key, due + 3, facts(api=due + 2, spans=[(due - 1, due + 2)]))
    assert inside.status is Verdict.EXTENDED and inside.old == log.rec.deadline(key)
    assert inside.deadline == iso(due + 3 + 60)  # the grace after the later of now and the end
    after = deadlines.plan(log.rec, key, due + 1, facts(api=due, spans=[(due - 30, due - 10)]))
    assert after.status is Verdict.EXTENDED  # within the grace window after the outage
    long_ago = deadlines.plan(log.rec, key, due + 1, facts(api=due, spans=[(due - 99, due - 90)]))
    assert long_ago.status is Verdict.APPLIED


def test_a_decision_answered_or_defaulted_is_a_no_op():
    log, key, due = game()
    seat = log.rec.owed()[0].seat
    log.run({"type": "act", "player": log.rec.seats[seat].player, "action": {"type": "pass"}})
    assert all(o.key != key for o in log.rec.owed())
    plan = deadlines.plan(log.rec, key, due + 1, facts())
    assert plan.status is Verdict.NOOP and not Status(plan.status).still_due

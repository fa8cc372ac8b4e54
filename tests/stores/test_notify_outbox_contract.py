"""The notification steps' port contract, on Redis and in memory (stores/
notify_outbox.py): steps planned (moved, or kept with only_new), staged with notes,
unplanned; a delivery's lease, attempts and end mark; digest marks; the delivery log."""

import pytest

from events import keys
from events.memory_recorder import MemoryRecorder
from events.recorder import RedisRecorder
from events.recording import Writes
from stores.memory.notify_outbox import MemoryNotifyOutbox
from stores.notify_outbox import Due, RedisNotifyOutbox


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def both(request):
    """(the outbox, the recorder whose appends' writes stage steps)."""
    if request.param == "memory":
        recorder = MemoryRecorder()
        return MemoryNotifyOutbox(follow=recorder.writes), recorder
    r = request.getfixturevalue("r")
    return RedisNotifyOutbox(r), RedisRecorder(r)


@pytest.fixture
def outbox(both):
    return both[0]


def test_a_step_planned_moves_unless_only_new(outbox):
    outbox.plan([Due("deliver|n1|email-t-p", 100.0, turn=True)])
    outbox.plan([Due("deliver|n1|email-t-p", 50.0, turn=True, only_new=True)])
    assert outbox.planned("deliver|n1|email-t-p") == 100.0
    outbox.plan([Due("deliver|n1|email-t-p", 70.0, turn=True)])
    assert outbox.planned("deliver|n1|email-t-p") == 70.0
    outbox.plan([])
    assert outbox.planned("remind|p|n1") is None


def test_a_step_unplanned_is_gone(outbox):
    outbox.plan([Due("digest|p1|daily", 10.0), Due("digest|p2|daily", 20.0)])
    outbox.unplan("digest|p1|daily")
    assert outbox.planned("digest|p1|daily") is None
    assert outbox.planned("digest|p2|daily") == 20.0


def test_steps_staged_with_notes_are_planned(both):
    outbox, recorder = both
    writes = Writes()
    writes.zadd(keys.notify_due(True), {"notify|p1|n1": 42.0})
    writes.zadd(keys.notify_due(), {"notify|p1|n2": 43.0})
    recorder.write(writes)
    assert outbox.planned("notify|p1|n1") == 42.0
    assert outbox.planned("notify|p1|n2") == 43.0


ONE = ("n1", "email", "t1", "email-t1-p")  # a delivery: note, channel, target, its key
TWO = ("n1", "email", "t2", "email-t2-p")  # the same note to another target


def test_a_delivery_is_leased_once_until_its_attempt_ends(outbox):
    assert outbox.lease(ONE, 30)
    assert not outbox.lease(ONE, 30)
    assert outbox.lease(TWO, 30)  # another target: its own lease
    outbox.attempted(ONE, 60, None, None)
    assert outbox.lease(ONE, 30)


def test_attempts_are_counted_and_the_last_marks_the_outcome(outbox):
    retry = Due("deliver|n1|email-t1-p", 500.0, turn=True)
    assert outbox.tried(ONE) == 0
    outbox.attempted(ONE, 60, None, retry)
    assert outbox.planned("deliver|n1|email-t1-p") == 500.0
    assert outbox.ended(ONE) is None
    outbox.attempted(ONE, 60, "sent", None)
    assert outbox.tried(ONE) == 2
    assert outbox.ended(ONE) == "sent"
    assert outbox.ended(TWO) is None and outbox.tried(TWO) == 0


def test_the_digest_mark(outbox):
    assert outbox.digest_mark("p1") is None
    outbox.mark_digest("p1", "1700000000000-3")
    assert outbox.digest_mark("p1") == "1700000000000-3"
    assert outbox.digest_mark("p2") is None


def test_the_delivery_log_keeps_the_newest_first(outbox):
    for attempt in range(1, 5):
        outbox.log("p1", {"notification": "n1", "attempt": attempt}, keep=3)
    assert [e["attempt"] for e in outbox.logged("p1")] == [4, 3, 2]
    assert outbox.logged("p2") == []

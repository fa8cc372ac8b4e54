"""What the workers do when a game's time comes (service.deadline_commands) on in-memory
ports (tests/support/memory_boot.py): an overdue decision gets its default once, an
early expiry is looked at again at its time, a simultaneous phase is resolved once."""

from __future__ import annotations

import random
import time

from events import catalog
from events.codec import parse_time
from service import deadline_commands, game_commands, tables
from service.ports import Status
from tests.service.league_setup import later
from tests.service.tables_setup import ANN, BOB, CY, written
from tests.service.test_use_cases_unit import seated, turn


def test_an_overdue_decision_gets_its_default_once_and_a_second_run_does_nothing(boot, monkeypatch):
    rec = seated(boot, ["ann", "bob", "cy"], timeout=60)
    owed = rec.owed()[0]
    later(monkeypatch, 3600)
    assert deadline_commands.expire(boot, rec.game_id, owed.key) is Status.APPLIED
    after = boot.store.load(rec.game_id).record
    written = boot.store.read(rec.game_id, rec.version)
    timed_out = [e for e in written if e["type"] == catalog.DECISION_TIMED_OUT]
    assert [e["data"]["seat"] for e in timed_out] == [owed.seat]
    assert owed.key not in {o.key for o in after.owed()}
    assert deadline_commands.expire(boot, rec.game_id, owed.key) is Status.NOOP
    assert boot.store.load(rec.game_id).record.version == after.version


def test_an_expiry_before_the_deadline_writes_nothing_and_is_scheduled_at_its_time(boot):
    rec = seated(boot, ["ann", "bob", "cy"], timeout=600)
    owed = rec.owed()[0]
    deadline = rec.deadline(owed.key)
    boot.scheduler.asked.clear()
    assert deadline_commands.expire(boot, rec.game_id, owed.key) is Status.EARLY
    assert boot.store.load(rec.game_id).record.version == rec.version
    assert boot.scheduler.asked == [("expiry", rec.game_id, owed.key, deadline)]


def test_an_answered_decision_expires_as_a_noop(boot, monkeypatch):
    rec = seated(boot, ["ann", "bob", "cy"], timeout=60)
    owed = rec.owed()[0]
    player, action = turn(rec, random.Random(1))
    done = game_commands.act(boot, rec.game_id, player, action, "k1", None)
    later(monkeypatch, 3600)
    assert owed.key not in {o.key for o in done.record.owed()}
    assert deadline_commands.expire(boot, rec.game_id, owed.key) is Status.NOOP
    assert boot.store.load(rec.game_id).record.version == done.version


def test_a_simultaneous_phase_is_resolved_once_all_are_in(boot):
    rec, _ = tables.create(boot, ANN, "sorcerous-futures", 3, {}, None, {"join": True})
    for p in (BOB, CY):
        tables.join(boot, rec.game_id, p, None)
    rec, rnd = boot.store.load(rec.game_id).record, random.Random(7)
    for n in range(200):
        asked = [a for a in boot.scheduler.asked if a[0] == "resolution"]
        if asked or not rec.owed():
            break
        player, action = turn(rec, rnd)
        game_commands.act(boot, rec.game_id, player, action, f"k{n}", None)
        rec = boot.store.load(rec.game_id).record
    assert asked, "no sealed-bid phase came up"
    _, gid, key = asked[0]
    before = boot.store.load(gid).record
    assert before.game.ready(before.state) == key
    assert deadline_commands.resolve(boot, gid, key) is Status.RESOLVED
    resolved = boot.store.load(gid).record
    assert resolved.version > before.version
    assert resolved.game.ready(resolved.state) != key
    assert deadline_commands.resolve(boot, gid, key) is Status.NOOP
    assert boot.store.load(gid).record.version == resolved.version


def test_a_deadline_that_fell_in_an_outage_gets_a_fresh_one_not_a_default(boot, monkeypatch):
    rec = seated(boot, ["ann", "bob", "cy"], timeout=60)
    owed, start = rec.owed()[0], time.time()
    threshold = float(boot.config["OUTAGE_AFTER_S"])
    boot.operations.beat(start, threshold, api=True)
    assert boot.operations.beat(start + 3600, threshold, api=True)  # down for an hour
    later(monkeypatch, 3700)
    assert deadline_commands.expire(boot, rec.game_id, owed.key) is Status.EXTENDED
    after = boot.store.load(rec.game_id).record
    types = written(boot, rec.game_id, rec.version)
    assert catalog.DECISION_TIMED_OUT not in types and catalog.DEADLINE_EXTENDED in types
    assert parse_time(after.deadline(owed.key)).timestamp() > start + 3600


def test_a_default_waits_while_the_api_has_not_been_up_since_the_deadline(boot, monkeypatch):
    rec = seated(boot, ["ann", "bob", "cy"], timeout=60)
    owed = rec.owed()[0]
    boot.operations.beat(time.time(), float(boot.config["OUTAGE_AFTER_S"]), api=True)
    later(monkeypatch, 3600)  # no beat since: the API may be down
    boot.scheduler.asked.clear()
    assert deadline_commands.expire(boot, rec.game_id, owed.key) is Status.POSTPONED
    assert boot.store.load(rec.game_id).record.version == rec.version
    assert [a[:3] for a in boot.scheduler.asked] == [("expiry", rec.game_id, owed.key)]

"""The operator's checks and the outage rule's use cases on in-memory ports (the unit
tier): readiness and /metrics read the heartbeats through stores.operations, a recorded
outage gives an owed decision a fresh deadline, and a game's evidence names the outages
during it."""

from __future__ import annotations

import time

import pytest

from events.codec import parse_time
from service import deadline_commands, game_evidence, metrics, outage_extension, outages, readiness
from service.bootstrap import Bootstrap
from service.errors import Forbidden
from tests.service.test_use_cases_unit import seated
from tests.support.memory_boot import memory_boot

NOW = 1_800_000_000.0


class Answering:
    """The quick client of a store that answers (or raises `error`)."""

    def __init__(self, error: Exception | None = None) -> None:
        self.error = error

    def ping(self) -> None:
        if self.error is not None:
            raise self.error


@pytest.fixture
def boot() -> Bootstrap:
    return memory_boot(quick=Answering())


def test_readiness_reads_how_long_ago_the_sweeper_beat(boot):
    ok, checks = readiness.check(boot, now=NOW)
    assert not ok and checks["sweeper"] == {"ok": False, "last_beat_s_ago": None}
    outages.beat(boot.operations, NOW - 2.5, threshold=15)
    _, checks = readiness.check(boot, now=NOW)
    assert checks["sweeper"] == {"ok": True, "last_beat_s_ago": 2.5}
    assert checks["store"] == {"ok": True}
    assert checks["transparency_log"]["ok"]
    assert checks["workers"] == {"ok": False, "registered": 0}  # the listed scheduler: none
    _, checks = readiness.check(boot, now=NOW + readiness.SWEEPER_STALE_S)
    assert checks["sweeper"]["ok"] is False


def test_readiness_says_the_store_is_down_and_reads_nothing_else(boot):
    boot.quick = Answering(ConnectionError("down"))
    ok, checks = readiness.check(boot, now=NOW)
    assert not ok and checks == {"store": {"ok": False, "error": "ConnectionError"}}


def test_an_alarm_on_the_public_log_makes_the_service_unready(boot):
    boot.tlog.alarm("g1:created", 0, "2026-11-29T00:00:00.000Z", "lost")
    _, checks = readiness.check(boot, now=NOW)
    assert checks["transparency_log"] == {
        "ok": False,
        "leaves": 0,
        "unindexed_leaves": 0,
        "alarms": 1,
    }


def test_metrics_gauge_the_sweepers_beat_and_count_a_recorded_outage(boot):
    assert b"marketfold_sweeper_beat_age_seconds -1.0" in metrics.exposition(boot)
    before, now = metrics.OUTAGES.labels("workers")._value.get(), time.time()
    outages.beat(boot.operations, now - 100, threshold=15)
    assert outages.beat(boot.operations, now - 40, threshold=15) == (now - 100, now - 40)
    assert metrics.OUTAGES.labels("workers")._value.get() == before + 1
    text = metrics.exposition(boot).decode()
    age = next(line for line in text.splitlines() if line.startswith("marketfold_sweeper_beat"))
    assert 40 <= float(age.split()[1]) < 50  # seconds since its last beat
    assert 'marketfold_games{status="waiting"} 0.0' in text


def test_an_outage_over_a_deadline_gives_the_decision_a_fresh_one(boot):
    rec = seated(boot, ["ann", "bob", "cy"], timeout=60)
    owing = rec.owed()[0]
    old = rec.deadline(owing.key)
    due = parse_time(old).timestamp()
    assert not outage_extension.extend_if_outage(boot, rec.game_id, owing.key, old)
    assert boot.store.load(rec.game_id).record.version == rec.version  # nothing written
    outages.beat(boot.operations, due - 30, threshold=15)
    outages.beat(boot.operations, due + 30, threshold=15)  # the workers were down over it
    assert outage_extension.extend_if_outage(boot, rec.game_id, owing.key, old)
    now = boot.store.load(rec.game_id).record
    assert now.version == rec.version + 1
    assert parse_time(now.deadline(owing.key)).timestamp() > due + 30
    extended = boot.store.read(rec.game_id, rec.version)[0]
    assert extended["type"] == "game.DeadlineExtended"
    assert extended["data"]["reason"] == "outage"
    # asked again (another process), it holds its fresh deadline: nothing more is written
    assert outage_extension.extend_if_outage(boot, rec.game_id, owing.key, old)
    assert boot.store.load(rec.game_id).record.version == rec.version + 1


def test_an_outage_long_before_a_deadline_extends_nothing(boot):
    rec = seated(boot, ["ann", "bob", "cy"], timeout=60)
    owing = rec.owed()[0]
    old = rec.deadline(owing.key)
    due = parse_time(old).timestamp()
    outages.beat(boot.operations, due - 1000, threshold=15)
    outages.beat(boot.operations, due - 900, threshold=15)
    facts = outage_extension.expiry_facts(boot, rec, owing.key, None)
    assert facts.outages == ()  # ended before the deadline's grace window: not read
    assert not outage_extension.extend_if_outage(boot, rec.game_id, owing.key, old)


def test_a_games_evidence_names_the_outages_during_it_to_its_players_only(boot):
    rec = seated(boot, ["ann", "bob", "cy"], timeout=60)
    start, end = game_evidence.span(boot, rec)
    outages.beat(boot.operations, start - 50, threshold=15)
    outages.beat(boot.operations, start + 0.5, threshold=15)  # overlaps the game's start
    outages.beat(boot.operations, end + 100, threshold=15)  # after it
    during = outages.during(boot.operations, start, end)
    assert [o["seconds"] for o in during] == [50.5]
    game_evidence.check(boot, rec, "ann")
    with pytest.raises(Forbidden) as err:
        game_evidence.check(boot, rec, "dee")
    assert err.value.code == "not_seated"


def test_an_expiry_before_its_deadline_writes_nothing_and_looks_again_at_its_time(boot):
    rec = seated(boot, ["ann", "bob", "cy"], timeout=60)
    owing = rec.owed()[0]
    outages.beat(boot.operations, time.time(), threshold=15, api=True)  # the API is up
    assert deadline_commands.expire(boot, rec.game_id, owing.key) == "early"
    assert boot.store.load(rec.game_id).record.version == rec.version
    again = [a for a in boot.scheduler.asked if a[0] == "expiry" and a[2] == owing.key]
    assert again[-1][3] == rec.deadline(owing.key)

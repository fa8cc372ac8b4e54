"""The API's heartbeat (service.outages) on in-memory ports (the unit tier): an API
process beats while it serves, and a gap in its beats longer than API_GAP_S, though far
shorter than the workers' OUTAGE_AFTER_S, is an outage on record, which the operator
reads in the log as it ends."""

from __future__ import annotations

import logging
import threading
import time

from events import codec
from events.deadlines import API_BEAT_S, API_GAP_S
from service import outages

THRESHOLD = 15  # OUTAGE_AFTER_S: the workers' gap


def stopped() -> threading.Event:
    """A stop already asked for: keep_beating beats once and returns."""
    stop = threading.Event()
    stop.set()
    return stop


def test_a_frozen_api_is_an_outage_long_before_a_workers_gap_would_be(boot, caplog):
    store, now = boot.operations, time.time()
    frozen = 4 * API_GAP_S
    assert frozen < THRESHOLD
    outages.beat_api(store, now - frozen - API_GAP_S / 2, THRESHOLD)
    assert outages.beat_api(store, now - frozen, THRESHOLD) is None  # beating: no gap
    with caplog.at_level(logging.WARNING, logger="service.outages"):
        outages.keep_beating(store, THRESHOLD, stopped())  # back after `frozen` seconds
    (outage,) = outages.during(store, now - 60, now + 60)
    assert outage["start"] == codec.iso(now - frozen)
    assert frozen <= outage["seconds"] < frozen + 5
    (gap,) = store.outages_since(now - 60)
    assert [r.getMessage() for r in caplog.records] == [
        f"API outage {outages.span(gap)}: deadlines in it get fresh ones"
    ]
    assert outages.span((100.0, 112.44)) == (
        "from 1970-01-01T00:01:40.000Z to 1970-01-01T00:01:52.440Z (12.4 s)"
    )
    assert store.last_beat(api=True) >= now  # it beat
    assert store.last_beat() is None  # the workers' heartbeat is theirs alone


def test_an_api_that_keeps_beating_records_no_outage(boot, caplog):
    store, now = boot.operations, time.time()
    outages.beat_api(store, now - API_GAP_S / 2, THRESHOLD)
    with caplog.at_level(logging.WARNING, logger="service.outages"):
        outages.keep_beating(store, THRESHOLD, stopped())
    assert outages.during(store, now - 60, now + 60) == [] and caplog.records == []


class Stop:
    """A stop asked for after `beats` waits; the waits it was asked for."""

    def __init__(self, beats: int) -> None:
        self.beats, self.waits = beats, []

    def wait(self, timeout: float) -> bool:
        self.waits.append(timeout)
        return len(self.waits) >= self.beats


def test_the_api_beats_every_api_beat_s_until_it_stops(boot, monkeypatch):
    beats = []
    monkeypatch.setattr(boot.operations, "beat", lambda now, gap, api: beats.append(api))
    stop = Stop(beats=3)
    outages.keep_beating(boot.operations, THRESHOLD, stop)
    assert beats == [True, True, True] and stop.waits == [API_BEAT_S] * 3

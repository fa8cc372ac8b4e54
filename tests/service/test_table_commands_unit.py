"""A league organizer's commands on a running table (service.table_commands) on in-memory
ports (tests/support/memory_boot.py): a substitute takes a seat, a player is away, the
clock stops and starts; each refusal with its stable code."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from events import catalog
from events.codec import iso, parse_time
from games.base import RuleViolation
from service import game_commands, leaving, table_commands
from tests.service.league_setup import later
from tests.service.tables_setup import written
from tests.service.test_use_cases_unit import seated, turn

SUB = {"id": "sue", "name": "Sue"}


def test_a_substitute_takes_a_seat_and_plays_its_moves_from_then_on(boot):
    rec = seated(boot, ["ann", "bob", "cy"])
    owing = rec.owed()[0].seat
    was = rec.seats[owing].player
    done = table_commands.take_seat(boot, rec.game_id, owing, SUB, "op")
    assert done.created and catalog.SEAT_TAKEN in written(boot, rec.game_id, rec.version)
    now = boot.store.load(rec.game_id).record
    assert now.seats[owing].player == "sue"
    assert now.seat_of(was) is None
    player, action = turn(now, random.Random(1))
    assert player == "sue"
    assert game_commands.act(boot, rec.game_id, "sue", action, "k1", None).created


def test_a_seated_player_or_a_missing_seat_cannot_be_a_substitute(boot):
    rec = seated(boot, ["ann", "bob", "cy"])
    with pytest.raises(RuleViolation) as seated_already:
        table_commands.take_seat(boot, rec.game_id, 0, {"id": "bob", "name": "Bob"}, "op")
    assert seated_already.value.code == "already_seated"
    with pytest.raises(RuleViolation) as no_seat:
        table_commands.take_seat(boot, rec.game_id, 7, SUB, "op")
    assert no_seat.value.code == "rule_violation"
    assert boot.store.load(rec.game_id).record.version == rec.version


def test_an_away_span_over_a_deadline_moves_it_on_once_for_a_retry(boot):
    rec = seated(boot, ["ann", "bob", "cy"], timeout=600)
    owed = rec.owed()[0]
    deadline = parse_time(rec.deadline(owed.key))
    start = iso((deadline - timedelta(seconds=60)).timestamp())
    end = iso((deadline + timedelta(hours=1)).timestamp())
    first = table_commands.away(boot, rec.game_id, owed.seat, (start, end), "op")
    again = table_commands.away(boot, rec.game_id, owed.seat, (start, end), "op")
    assert first.created and not again.created and again.version == first.version
    now = boot.store.load(rec.game_id).record
    assert (owed.seat, start, end) in now.away
    assert parse_time(now.deadline(owed.key)) > deadline
    with pytest.raises(RuleViolation) as no_seat:
        table_commands.away(boot, rec.game_id, 9, (start, end), "op")
    assert no_seat.value.code == "rule_violation"


def test_a_paused_table_refuses_moves_until_its_clock_starts_again(boot):
    rec = seated(boot, ["ann", "bob", "cy"], timeout=600)
    player, action = turn(rec, random.Random(2))
    assert table_commands.pause(boot, rec.game_id, "op").created
    with pytest.raises(RuleViolation) as paused:
        game_commands.act(boot, rec.game_id, player, action, "k1", None)
    assert paused.value.code == "game_paused"
    with pytest.raises(RuleViolation) as twice:
        table_commands.pause(boot, rec.game_id, "op")
    assert twice.value.code == "game_paused"
    resumed = table_commands.resume(boot, rec.game_id, "op")
    logged = written(boot, rec.game_id, rec.version)
    assert resumed.created and catalog.RESUMED in logged
    assert catalog.DEADLINE_EXTENDED in logged  # the owed decision gets its time back
    assert not boot.store.load(rec.game_id).record.paused_at
    assert game_commands.act(boot, rec.game_id, player, action, "k1", None).created


def test_a_running_clock_cannot_be_started_and_a_finished_game_takes_no_command(boot):
    rec = seated(boot, ["ann", "bob", "cy"])
    with pytest.raises(RuleViolation) as running:
        table_commands.resume(boot, rec.game_id, "op")
    assert running.value.code == "rule_violation"
    leaving.abort(boot, rec.game_id, "ann")
    with pytest.raises(RuleViolation) as over:
        table_commands.pause(boot, rec.game_id, "op")
    assert over.value.code == "game_over"


def test_a_resumed_clock_gives_the_owed_decision_back_the_time_it_was_stopped(boot, monkeypatch):
    rec = seated(boot, ["ann", "bob", "cy"], timeout=600)
    owed = rec.owed()[0]
    before = parse_time(rec.deadline(owed.key))
    table_commands.pause(boot, rec.game_id, "op")
    later(monkeypatch, 3600)  # stopped for an hour, past the deadline as it was
    table_commands.resume(boot, rec.game_id, "op")
    moved = parse_time(boot.store.load(rec.game_id).record.deadline(owed.key)) - before
    assert timedelta(minutes=59) < moved < timedelta(minutes=61)

"""Leaving a quiet table (service.leaving) on in-memory ports (tests/support/memory_boot.py):
a player aborts a game before any opponent has moved, and claims an untimed game nobody
has acted in for its idle time; each refusal with its stable code."""

from __future__ import annotations

import random

import pytest

from events import catalog, decide
from events.seating import NotSeated
from games.base import RuleViolation
from service import game_commands, leaving
from tests.service.league_setup import later
from tests.service.tables_setup import written
from tests.service.test_use_cases_unit import seated, turn


def test_a_player_aborts_before_any_opponent_has_moved_and_the_game_ends(boot):
    rec = seated(boot, ["ann", "bob", "cy"])
    player, action = turn(rec, random.Random(1))
    assert game_commands.act(boot, rec.game_id, player, action, "k1", None).created
    done = leaving.abort(boot, rec.game_id, player)  # only their own move so far
    assert done.created
    assert {catalog.ABORTED, catalog.ENDED} <= set(written(boot, rec.game_id, rec.version))
    assert boot.store.load(rec.game_id).record.status == "finished"


def test_an_abort_is_refused_once_an_opponent_has_moved_and_to_a_stranger(boot):
    rec = seated(boot, ["ann", "bob", "cy"])
    player, action = turn(rec, random.Random(2))
    moved = game_commands.act(boot, rec.game_id, player, action, "k1", None)
    other = next(s.player for s in rec.seats if s.player != player)
    with pytest.raises(RuleViolation) as late:
        leaving.abort(boot, rec.game_id, other)
    assert late.value.code == "abort_too_late"
    with pytest.raises(NotSeated):
        leaving.abort(boot, rec.game_id, "dee")
    now = boot.store.load(rec.game_id).record
    assert now.version == moved.version and now.status == "active"


def test_an_idle_untimed_game_is_claimed_only_after_its_idle_time(boot, monkeypatch):
    rec = seated(boot, ["ann", "bob", "cy"])
    owing = {o.seat for o in rec.owed()}
    claimer = next(s.player for s in rec.seats if s.seat not in owing)
    with pytest.raises(RuleViolation) as early:
        leaving.claim(boot, rec.game_id, claimer)
    assert early.value.code == "claim_too_early"
    assert boot.store.load(rec.game_id).record.version == rec.version
    later(monkeypatch, decide.CLAIM_AFTER_S + 60)
    owes = rec.seats[next(iter(owing))].player
    with pytest.raises(RuleViolation) as owing_one:
        leaving.claim(boot, rec.game_id, owes)  # the seat keeping the game waiting
    assert owing_one.value.code == "claim_not_allowed"
    assert leaving.claim(boot, rec.game_id, claimer).created
    assert {catalog.CLAIMED, catalog.ENDED} <= set(written(boot, rec.game_id, rec.version))
    assert boot.store.load(rec.game_id).record.status == "finished"


def test_a_timed_game_cannot_be_claimed(boot, monkeypatch):
    rec = seated(boot, ["ann", "bob", "cy"], timeout=600)
    owing = {o.seat for o in rec.owed()}
    claimer = next(s.player for s in rec.seats if s.seat not in owing)
    later(monkeypatch, decide.CLAIM_AFTER_S + 60)
    with pytest.raises(RuleViolation) as timed:
        leaving.claim(boot, rec.game_id, claimer)
    assert timed.value.code == "claim_not_allowed"

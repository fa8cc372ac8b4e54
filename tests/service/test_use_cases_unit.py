"""The service's action use case on in-memory ports, no Redis (the unit tier): the games'
repository over events.memory_recorder.MemoryRecorder, which passes the recorder's
contract tests (tests/events/test_recorder_contract.py), and a scheduler that lists
what it is asked (tests/support/memory_boot.py)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest

from events import deadlines, seating
from events.codec import parse_time
from events.fold import fold_all
from events.record import Record
from events.recording import Log
from events.refusals import StaleVersion
from events.repository import Loaded
from events.seating import NotSeated
from games import schemas
from games.base import Event
from service import game_commands, game_queries, loop
from service.admission import Admission, Recheck
from service.bootstrap import Bootstrap
from service.game_log import GameLog

SEED = b"s" * 32


def seated(boot: Bootstrap, players: list[str], timeout: int | None = None) -> Record:
    """A Goblin Market game with `players` seated (so started), written by the loop."""
    gid = "g_unit"
    boot.store.recorder.keep_seed(Log.game(gid), SEED)
    created = {
        "game_id": gid,
        "ruleset": "goblin-market",
        "rules_version": game_commands.ruleset("goblin-market").rules_version,
        "players": len(players),
        "options": {},
        "decision_timeout_s": timeout,
        "creator": players[0],
        "seed_commitment": "unit",
    }
    loop.run(
        boot,
        GameLog(boot, gid, allow_new=True),
        lambda rec, rng: ("system", [Event("game.Created", created)]),
        cause="setup",
    )
    for p in players:
        joined = seating.join
        loop.run(
            boot,
            GameLog(boot, gid),
            lambda rec, rng, p=p: ("system", joined(rec, p, p.upper(), rng)),
            cause=f"join:{p}",
        )
    return boot.store.load(gid).record


def turn(rec: Record, rnd: random.Random) -> tuple[str, dict[str, Any]]:
    """The player who owes a decision now, and one of their legal actions."""
    seat = rec.owed()[0].seat
    specs = rec.game.legal(rec.state, seat)
    published = [{"type": s.type, "schema": s.schema, "choices": s.choices} for s in specs]
    return rec.seats[seat].player, schemas.random_action(published, rnd)


def test_a_legal_action_is_appended_and_its_deadline_scheduled(boot):
    rec = seated(boot, ["ann", "bob", "cy"], timeout=60)
    player, action = turn(rec, random.Random(1))
    done = game_commands.act(boot, rec.game_id, player, action, "k1", None)
    assert done.created and done.version > rec.version
    assert [e["seq"] for e in boot.store.read(rec.game_id, rec.version)] == list(
        range(rec.version + 1, done.version + 1)
    )
    assert done.envelopes[0]["command"] == {"type": "act", "player": player, "action": action}
    owed_now = {o["deadline"] for o in done.owed}
    assert any(a[0] == "expiry" and a[3] in owed_now for a in boot.scheduler.asked)


def test_a_retry_with_the_same_key_answers_the_first_result_and_appends_nothing(boot):
    rec = seated(boot, ["ann", "bob", "cy"])
    player, action = turn(rec, random.Random(2))
    first = game_commands.act(boot, rec.game_id, player, action, "k1", None)
    again = game_commands.act(boot, rec.game_id, player, action, "k1", None)
    assert not again.created and again.version == first.version
    assert [e["seq"] for e in again.envelopes] == [e["seq"] for e in first.envelopes]
    assert boot.store.load(rec.game_id).record.version == first.version


def test_a_stranger_and_a_stale_if_match_are_refused_and_nothing_is_written(boot):
    rec = seated(boot, ["ann", "bob", "cy"])
    player, action = turn(rec, random.Random(3))
    with pytest.raises(NotSeated):
        game_commands.act(boot, rec.game_id, "dee", action, "k1", None)
    with pytest.raises(StaleVersion):
        game_commands.act(boot, rec.game_id, player, action, "k2", rec.version - 1)
    assert boot.store.load(rec.game_id).record.version == rec.version


def test_an_admitted_action_decided_on_a_record_from_before_the_seats_is_rechecked(boot):
    """#27.2 at the use case: the record a process held from before its caller took a seat
    says `not_seated`; that is no answer, and nothing is written."""
    rec = seated(boot, ["ann", "bob", "cy"])
    player, action = turn(rec, random.Random(4))
    created = boot.store.read(rec.game_id, 0, 1)  # the game as created: no seat taken
    before_seats = Loaded(fold_all(Record(rec.game_id), created), SEED, None)
    admission = Admission("token", b"record", "counter", (10, 60))
    with pytest.raises(Recheck):
        game_commands.act(boot, rec.game_id, player, action, "k1", None, before_seats, admission)
    assert boot.store.load(rec.game_id).record.version == rec.version
    # decided on the log as stored, the same action stands
    assert game_commands.act(boot, rec.game_id, player, action, "k1", None).created


def test_an_admission_a_recorder_cannot_check_takes_the_usual_path(boot):
    """The in-memory recorder, like a cluster, runs no guarded appends: Recheck, nothing
    counted or written."""
    rec = seated(boot, ["ann", "bob", "cy"])
    player, action = turn(rec, random.Random(5))
    held = boot.store.load(rec.game_id)
    admission = Admission("token", b"record", "counter", (10, 60))
    with pytest.raises(Recheck):
        game_commands.act(boot, rec.game_id, player, action, "k1", None, held, admission)
    assert admission.count is None
    assert boot.store.load(rec.game_id).record.version == rec.version


def test_a_refusal_tells_a_seat_what_it_may_do_and_nothing_once_past_its_deadline(boot):
    rec = seated(boot, ["ann", "bob", "cy"], timeout=60)
    owing = rec.owed()[0]
    player = rec.seats[owing.seat].player
    legal = [
        {"type": s.type, "schema": s.schema, "choices": s.choices}
        for s in rec.game.legal(rec.state, owing.seat)
    ]
    now = game_queries.standing(rec, player)
    assert now == {"version": rec.version, "actions": legal} and legal
    grace = deadlines.tolerance(rec).grace
    late = parse_time(rec.deadline(owing.key)) + grace + timedelta(seconds=1)
    assert game_queries.standing(rec, player, late)["actions"] == []
    idle = next(s.player for s in rec.seats if s.seat != owing.seat)
    assert game_queries.standing(rec, idle)["actions"] == []
    assert game_queries.standing(rec, "dee") == {
        "version": rec.version,
        "actions": [],
    }

"""Computer players on in-memory ports (the unit tier): the creator fills free seats
with them, each a player record marked `computer` whose seat commits to a secret and
reveals it when the table fills; then they play their turns, a refused move decided again;
each refusal of a fill or a new game's computer seats with its code (service.computer_turns,
service.computer_seeds)."""

from __future__ import annotations

import random

import pytest

import computer
from events.codec import parse_time
from events.record import ACTIVE
from games import schemas
from service import computer_seeds, computer_turns, game_commands, tables
from service.errors import Conflict, DomainError, Forbidden, Invalid
from service.ports import SEAT_SEEDS, Status
from tests.service.tables_setup import ANN, BOB, table
from tests.support.memory_boot import memory_boot


@pytest.fixture
def boot():
    boot = memory_boot()
    boot.config["COMPUTER_BUDGET_S"] = 0  # the quick answer: no search
    return boot


def computers_owe(boot, rec, rnd=None):
    """Ann, the table's only person, plays until a computer seat owes: (the game then,
    the turns `<seat>-<key>` its computer seats owe)."""
    rnd = rnd or random.Random(7)
    while not (owed := {f"{o.seat}-{o.key}" for o in rec.owed() if rec.computer(o.seat)}):
        owing = rec.owed()[0]
        specs = rec.game.legal(rec.state, owing.seat)
        published = [{"type": x.type, "schema": x.schema, "choices": x.choices} for x in specs]
        action = schemas.random_action(published, rnd)
        rec = game_commands.act(boot, rec.game_id, ANN["id"], action, None, None).record
    return rec, owed


def test_only_the_creator_seats_computer_players(boot):
    rec, _ = table(boot)
    with pytest.raises(Forbidden) as refused:
        computer_turns.fill(boot, rec.game_id, BOB["id"], "quick", None)
    assert refused.value.code == "not_creator"


def test_computer_players_fill_the_table_reveal_their_secrets_and_play(boot):
    rec, _ = table(boot)
    started = computer_turns.fill(boot, rec.game_id, ANN["id"], "quick", None)
    computers = [s for s in started.seats if s.computer]
    assert started.status == ACTIVE and len(computers) == 2
    for s in computers:
        assert boot.players.name(s.player) == s.name  # a player like any other
        assert s.commitment and boot.computer_seats.secret(rec.game_id, s.player)
        assert computer_seeds.reveal(boot, rec.game_id, s.seat) is Status.NOOP  # revealed
    rec, owed = computers_owe(boot, started)
    assert owed <= {a[2] for a in boot.scheduler.asked if a[0] == "computer_turn"}
    turn = sorted(owed)[0]
    assert computer_turns.play(boot, rec.game_id, turn) is Status.APPLIED
    assert computer_turns.play(boot, rec.game_id, turn) is Status.NOOP


def test_a_fill_is_refused_with_its_reason_and_seats_nothing(boot):
    rec, _ = table(boot, players=4)
    for level, seats, code in (
        ("genius", None, "invalid_body"),  # no such level
        ("quick", 0, "no_free_seat"),
        ("quick", 4, "no_free_seat"),  # three are free
    ):
        with pytest.raises(DomainError) as refused:
            computer_turns.fill(boot, rec.game_id, ANN["id"], level, seats)
        assert refused.value.code == code
    empty, _ = table(boot, creator=BOB, join=False)  # its creator sits elsewhere
    with pytest.raises(Conflict) as alone:
        computer_turns.fill(boot, empty.game_id, BOB["id"], "quick", None)
    assert alone.value.code == "no_person_seated"
    assert computer_turns.fill(boot, empty.game_id, BOB["id"], "quick", 2).status == "waiting"
    assert [s.player for s in boot.store.load(rec.game_id).record.seats] == [ANN["id"]]
    started = computer_turns.fill(boot, rec.game_id, ANN["id"], "quick", None)
    with pytest.raises(Conflict) as late:
        computer_turns.fill(boot, started.game_id, ANN["id"], "quick", None)
    assert late.value.code == "game_not_waiting"


def test_a_new_games_computer_seats_are_checked_before_anything_is_written():
    assert computer_turns.check_new(3, {"join": True}, 1) is None  # none asked
    assert computer_turns.check_new(3, {"join": True, "computer": {"level": "quick"}}, 1) == 2
    assert computer_turns.check_new(3, {"join": True, "computer": {"level": "quick"}}, 0) == 2
    one = {"computer": {"level": "quick", "seats": 1}}
    assert computer_turns.check_new(3, one, 0) == 1  # two seats left for people
    for players, table_terms, invited in (
        (3, {"computer": {"level": "quick"}}, 0),  # every seat a computer's
        (3, {"join": True, "computer": {"level": "quick", "seats": 3}}, 1),
        (3, {"join": True, "computer": {"level": "genius"}}, 1),
    ):
        with pytest.raises(Invalid) as refused:
            computer_turns.check_new(players, table_terms, invited)
        assert refused.value.code == "invalid_body"


def test_a_person_who_takes_the_last_seat_meanwhile_keeps_it(boot, monkeypatch):
    rec, _ = table(boot)
    commit = computer_seeds.commit

    def bob_first(boot_, game_id, player_id):
        if len(boot.store.load(game_id).record.seats) == 2:  # the second computer's turn
            game_commands.join(boot, game_id, BOB)
        return commit(boot_, game_id, player_id)

    monkeypatch.setattr(computer_seeds, "commit", bob_first)
    answer = computer_turns.fill(boot, rec.game_id, ANN["id"], "quick", None)  # no error
    filled = boot.store.load(rec.game_id).record
    assert [bool(s.computer) for s in filled.seats] == [False, True, False]
    assert filled.seat_of(BOB["id"]) == 2
    assert answer.seats == filled.seats and answer.status == filled.status  # not before Bob
    reveal = f"1-{SEAT_SEEDS}"  # the reveals opened: the computer seat revealed at once
    assert [seat for seat, _ in filled.reveals] == [1] and filled.status == "active"
    assert computer_turns.play(boot, rec.game_id, reveal) is Status.NOOP


def test_a_computer_decides_within_the_time_its_deadline_leaves(boot):
    boot.config.update(COMPUTER_BUDGET_S=5, COMPUTER_MARGIN_S=1)
    rec, _ = table(boot)  # untimed
    timed, _ = tables.create(boot, ANN, "goblin-market", 3, {}, 60, {"join": True})
    timed = computer_turns.fill(boot, timed.game_id, ANN["id"], "quick", None)
    key = timed.owed()[0].key
    deadline = parse_time(timed.deadline(key)).timestamp()
    assert computer_turns.budget(boot, timed, key, deadline - 60) == 5  # plenty left
    assert computer_turns.budget(boot, timed, key, deadline - 3) == pytest.approx(2)
    assert computer_turns.budget(boot, timed, key, deadline) == 0  # the quick answer
    untimed = computer_turns.fill(boot, rec.game_id, ANN["id"], "quick", None)
    assert computer_turns.budget(boot, untimed, untimed.owed()[0].key, 0) == 5


def test_a_refused_computer_move_is_decided_again_while_the_seat_still_owes(boot, monkeypatch):
    rec, _ = table(boot)
    rec, owed = computers_owe(
        boot, computer_turns.fill(boot, rec.game_id, ANN["id"], "quick", None)
    )
    turn = sorted(owed)[0]
    seat = int(turn.split("-")[0])
    legal = computer.decide
    monkeypatch.setattr(computer, "decide", lambda *a: ({"type": "no-such-move"}, "quick"))
    again = ("computer_turn", rec.game_id, turn)
    asked = boot.scheduler.asked.count(again)
    assert computer_turns.play(boot, rec.game_id, turn) is Status.EARLY
    assert boot.scheduler.asked.count(again) == asked + 1  # due again at once
    assert boot.store.load(rec.game_id).record.version == rec.version

    def decided_twice(*args):  # another run of the same turn played first
        action, by = legal(*args)
        player = rec.seats[seat].player
        game_commands.act(boot, rec.game_id, player, action, "other-run", rec.version)
        return action, by

    monkeypatch.setattr(computer, "decide", decided_twice)
    assert computer_turns.play(boot, rec.game_id, turn) is Status.NOOP  # played once
    assert computer_turns.play(boot, rec.game_id, "x-" + turn) is Status.NOOP  # not a turn
    monkeypatch.setattr(computer, "decide", legal)
    ann = rec.seat_of(ANN["id"])
    while not (mine := [o.key for o in rec.owed() if o.seat == ann]):  # the computers play on
        rec = boot.store.load(rec.game_id).record
        computer_turns.play(boot, rec.game_id, f"{rec.owed()[0].seat}-{rec.owed()[0].key}")
        rec = boot.store.load(rec.game_id).record
    assert computer_turns.play(boot, rec.game_id, f"{ann}-{mine[0]}") is Status.NOOP  # a person's
    assert boot.store.load(rec.game_id).record.version == rec.version

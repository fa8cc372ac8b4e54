"""Computer players on in-memory ports (the unit tier): the creator fills free seats
with them, each a player record marked `computer` whose seat commits to a secret and
reveals it when the table fills; then they play their turns (service.computer_turns,
service.computer_seeds)."""

from __future__ import annotations

import random

import pytest

from events.record import ACTIVE
from games import schemas
from service import computer_seeds, computer_turns, game_commands
from service.errors import Forbidden
from service.ports import Status
from tests.service.tables_setup import ANN, BOB, table
from tests.support.memory_boot import memory_boot


@pytest.fixture
def boot():
    boot = memory_boot()
    boot.config["COMPUTER_BUDGET_S"] = 0  # the quick answer: no search
    return boot


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
    rec, rnd = started, random.Random(7)
    while not (owed := {f"{o.seat}-{o.key}" for o in rec.owed() if rec.computer(o.seat)}):
        owing = rec.owed()[0]  # Ann's, the table's only person
        specs = rec.game.legal(rec.state, owing.seat)
        published = [{"type": x.type, "schema": x.schema, "choices": x.choices} for x in specs]
        action = schemas.random_action(published, rnd)
        rec = game_commands.act(boot, rec.game_id, ANN["id"], action, None, None).record
    assert owed <= {a[2] for a in boot.scheduler.asked if a[0] == "computer_turn"}
    turn = sorted(owed)[0]
    assert computer_turns.play(boot, rec.game_id, turn) is Status.APPLIED
    assert computer_turns.play(boot, rec.game_id, turn) is Status.NOOP

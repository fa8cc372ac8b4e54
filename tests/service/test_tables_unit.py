"""Tables before they start, on in-memory ports (the unit tier): an unlisted game's
secret, seats held for named players (as a rematch holds them), invitations, declines,
lapses, leaving and cancelling (service.tables, service.lobby_commands)."""

from __future__ import annotations

import pytest

from events.record import CANCELLED
from events.seating import NotSeated
from games.base import RuleViolation
from service import lobby_commands, tables
from service.errors import Conflict, Forbidden
from service.ports import Status
from tests.service.tables_setup import ANN, BOB, CY, table


def held_for_bob(boot):
    """An unlisted game of Ann's holding a seat for Ann (taken) and one for Bob."""
    return tables.create(
        boot,
        ANN,
        "goblin-market",
        3,
        {},
        None,
        {"unlisted": True},
        rematch_of="g_old",
        former=[ANN, BOB],
    )


def test_an_unlisted_games_secret_is_shown_to_its_creator_only(boot):
    rec, secret = table(boot, unlisted=True)
    assert secret and tables.secret(boot, rec, ANN["id"]) == secret
    assert tables.secret(boot, rec, BOB["id"]) is None
    listed, none = table(boot, creator=BOB)
    assert none is None and tables.secret(boot, listed, BOB["id"]) is None


def test_an_unlisted_games_free_seat_takes_its_secret(boot):
    rec, secret = table(boot, unlisted=True)
    with pytest.raises(Forbidden) as refused:
        tables.join(boot, rec.game_id, BOB, "wrong")
    assert refused.value.code == "invitation_required"
    assert tables.join(boot, rec.game_id, BOB, secret).record.seat_of(BOB["id"]) is not None


def test_a_held_seat_is_an_invitation_until_it_is_declined(boot):
    rec, _ = held_for_bob(boot)
    assert rec.seat_of(ANN["id"]) is not None and rec.reserved() == [BOB["id"]]
    assert ("release", rec.game_id, rec.reserved_until) in boot.scheduler.asked
    shown = tables.invitations(boot, BOB["id"])
    assert [(i["game"], i["creator"], i["rematch_of"]) for i in shown] == [
        (rec.game_id, ANN["id"], "g_old")
    ]
    with pytest.raises(Forbidden):  # not held for Cy, and no secret
        tables.join(boot, rec.game_id, CY, None)
    tables.decline(boot, rec.game_id, BOB["id"])
    assert tables.invitations(boot, BOB["id"]) == []
    with pytest.raises(RuleViolation) as again:
        tables.decline(boot, rec.game_id, BOB["id"])
    assert again.value.code == "not_invited"


def test_the_invited_player_takes_its_held_seat_without_the_secret(boot):
    rec, _ = held_for_bob(boot)
    joined = tables.join(boot, rec.game_id, BOB, None).record
    assert joined.seat_of(BOB["id"]) is not None and joined.reserved() == []
    assert tables.invitations(boot, BOB["id"]) == []


def test_held_seats_lapse_at_their_time_and_not_before(boot):
    rec, _ = held_for_bob(boot)
    assert tables.lapse(boot, rec.game_id) is Status.EARLY
    boot.config["REMATCH_RESERVE_S"] = -1  # a hold already past
    late, _ = held_for_bob(boot)
    assert tables.lapse(boot, late.game_id) is Status.APPLIED
    assert tables.invitations(boot, BOB["id"]) == [tables.invitation(rec)]
    assert tables.lapse(boot, late.game_id) is Status.NOOP


def test_a_player_leaves_a_waiting_game_and_only_the_creator_cancels_it(boot):
    rec, _ = table(boot)
    tables.join(boot, rec.game_id, BOB, None)
    left = lobby_commands.leave(boot, rec.game_id, BOB["id"]).record
    assert left.seat_of(BOB["id"]) is None
    with pytest.raises(NotSeated):
        lobby_commands.leave(boot, rec.game_id, BOB["id"])
    with pytest.raises(Forbidden) as refused:
        lobby_commands.cancel(boot, rec.game_id, BOB["id"])
    assert refused.value.code == "not_creator"
    assert lobby_commands.cancel(boot, rec.game_id, ANN["id"]).record.status == CANCELLED


def test_a_rematch_follows_a_finished_game_only(boot):
    rec, _ = table(boot)
    with pytest.raises(Conflict) as refused:
        lobby_commands.rematch(boot, rec.game_id, ANN)
    assert refused.value.code == "game_not_finished"

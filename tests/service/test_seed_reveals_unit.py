"""The seats' secrets revealed before play (service.seed_reveals), on in-memory ports (the
unit tier): a full table whose seats committed waits for their reveals; a secret that does
not match its commitment is refused naming the field; the last reveal starts the game;
at the window's end a worker starts it without the secrets still missing."""

from __future__ import annotations

import hashlib

import pytest

from events import codec
from games.base import RuleViolation
from service import seed_reveals, tables
from service.bootstrap import Bootstrap
from service.errors import Invalid
from service.ports import Status
from tests.service.league_setup import later
from tests.service.tables_setup import ANN, BOB, CY

SECRETS = {p["id"]: bytes([n]) * 32 for n, p in enumerate((ANN, BOB, CY), start=1)}


def commitment(player: dict[str, str]) -> str:
    return hashlib.sha256(SECRETS[player["id"]]).hexdigest()


def full_table(boot: Bootstrap) -> str:
    """A 3-seat Goblin Market table whose every seat committed to a secret."""
    rec, _ = tables.create(
        boot, ANN, "goblin-market", 3, {}, None, {"join": True, "seat_commitment": commitment(ANN)}
    )
    for p in (BOB, CY):
        tables.join(boot, rec.game_id, p, None, commitment=commitment(p))
    return rec.game_id


def test_a_full_committed_table_waits_for_the_reveals_and_a_worker_closes_them(boot):
    game_id = full_table(boot)
    rec = boot.store.load(game_id).record
    assert rec.status == "waiting" and rec.revealing
    assert sorted(rec.committed()) == [0, 1, 2]
    asked = [a for a in boot.scheduler.asked if a[0] == "reveals_close"]
    assert asked == [("reveals_close", game_id, rec.reveal_deadline())]


def test_a_secret_that_does_not_match_the_commitment_is_refused_naming_the_field(boot):
    game_id = full_table(boot)
    with pytest.raises(Invalid) as refused:
        seed_reveals.reveal(boot, game_id, BOB["id"], SECRETS[ANN["id"]].hex())
    assert refused.value.code == "reveal_mismatch"
    assert "seat_secret" in refused.value.errors
    assert boot.store.load(game_id).record.reveals == ()


def test_the_last_reveal_starts_the_game_with_every_secret(boot):
    game_id = full_table(boot)
    for p in (ANN, BOB):
        seed_reveals.reveal(boot, game_id, p["id"], SECRETS[p["id"]].hex())
        assert boot.store.load(game_id).record.status == "waiting"
    seed_reveals.reveal(boot, game_id, CY["id"], SECRETS[CY["id"]].hex())
    rec = boot.store.load(game_id).record
    assert rec.status == "active" and rec.seeds_combined
    assert len(rec.reveals) == 3
    assert seed_reveals.close_reveals(boot, game_id) == Status.NOOP  # nothing left to close


def test_the_window_closed_by_a_worker_starts_the_game_without_the_missing_secrets(
    boot, monkeypatch
):
    game_id = full_table(boot)
    seed_reveals.reveal(boot, game_id, ANN["id"], SECRETS[ANN["id"]].hex())
    assert seed_reveals.close_reveals(boot, game_id) == Status.EARLY  # not yet: due again
    closes = codec.parse_time(boot.store.load(game_id).record.reveal_deadline()).timestamp()
    later(monkeypatch, closes - codec.parse_time(codec.now_iso()).timestamp() + 1)
    assert seed_reveals.close_reveals(boot, game_id) == Status.APPLIED
    rec = boot.store.load(game_id).record
    assert rec.status == "active" and [seat for seat, _ in rec.reveals] == [rec.seat_of(ANN["id"])]
    with pytest.raises(RuleViolation) as late:  # the window is shut: a late reveal is refused
        seed_reveals.reveal(boot, game_id, BOB["id"], SECRETS[BOB["id"]].hex())
    assert late.value.code == "reveal_not_open"
    assert len(boot.store.load(game_id).record.reveals) == 1

"""A stale choice in a Black Market wild trade on in-memory ports (service.stale_choice,
through service.game_commands.act): a seat that answers an offer withdrawn since it read
the game, with that version as If-Match, is told `choice_stale` (the rules' own code in
the detail), whether the public log moved since or only the private one did; without
If-Match, or for a choice that was never legal, the rules' own answer stands, and nothing
is written either way."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import schemas
from games.base import RuleViolation
from service import deadline_commands, game_commands, game_queries, tables
from service.bootstrap import Bootstrap
from tests.service.tables_setup import ANN, BOB, CY
from tests.support.memory_boot import memory_boot


@pytest.fixture
def boot() -> Bootstrap:
    return memory_boot(new_seed=lambda: b"w" * 32)  # one deal, the same every run


def legal(boot: Bootstrap, gid: str, player: dict[str, str]) -> tuple[int, list[dict[str, Any]]]:
    """The version a player reads and the actions it may take there."""
    rec, specs = game_queries.legal(boot, gid, player["id"])
    return rec.version, game_queries.shown_actions(specs)


def wild_trade(boot: Bootstrap) -> str:
    """A three-seat wild game (Ann, Bob, Cy in seats 0, 1, 2) whose trade has just opened."""
    rec, _ = tables.create(boot, ANN, "black-market", 3, {"trade": "wild"}, None, {"join": True})
    gid, rnd = rec.game_id, random.Random(3)
    for p in (BOB, CY):
        tables.join(boot, gid, p, None)
    for p in (ANN, BOB, CY):  # the sealed production
        act = schemas.random_action(legal(boot, gid, p)[1], rnd)
        game_commands.act(boot, gid, p["id"], act, "produce", None)
    rec = boot.store.load(gid).record
    deadline_commands.resolve(boot, gid, rec.game.ready(rec.state))
    rec = boot.store.load(gid).record
    assert [s.player for s in rec.seats] == [ANN["id"], BOB["id"], CY["id"]]
    assert {o.key.split("-")[0] for o in rec.owed()} == {"wild"}
    return gid


def offer_to_bob(boot: Bootstrap, gid: str) -> str:
    """Ann's legal offer to Bob (built from her legal actions); return its id."""
    spec = next(a for a in legal(boot, gid, ANN)[1] if a["type"] == "offer")
    props = {**spec["schema"]["properties"], "to": {"const": 1}}
    offer = {"type": "offer", "schema": {**spec["schema"], "properties": props}, "choices": None}
    action = schemas.random_action([offer], random.Random(1))
    done = game_commands.act(boot, gid, ANN["id"], action, "offer", None)
    return done.envelopes[0]["data"]["id"]


def bobs_decline(boot: Bootstrap, gid: str, offer: str) -> tuple[int, dict[str, Any]]:
    """The version Bob reads and his choice there to decline `offer`."""
    version, actions = legal(boot, gid, BOB)
    choices = [c for a in actions if a["type"] == "decline" for c in a["choices"]]
    return version, next(c for c in choices if c["offer"] == offer)


def refused(boot: Bootstrap, gid: str, action: dict, if_match: int | None) -> RuleViolation:
    """Bob's `action` refused, and nothing written."""
    before = boot.store.load(gid).record
    with pytest.raises(RuleViolation) as err:
        game_commands.act(boot, gid, BOB["id"], action, f"bob:{if_match}", if_match)
    after = boot.store.load(gid).record
    assert (after.version, after.private) == (before.version, before.private)
    return err.value


def test_an_offer_withdrawn_in_private_after_it_was_read_answers_choice_stale(boot):
    gid = wild_trade(boot)
    offer = offer_to_bob(boot, gid)
    read, decline = bobs_decline(boot, gid, offer)
    game_commands.act(boot, gid, ANN["id"], {"type": "withdraw", "offer": offer}, "w", None)
    assert boot.store.load(gid).record.version == read  # a private step: no public move
    stale = refused(boot, gid, decline, read)
    assert stale.code == "choice_stale" and "offer_not_found" in str(stale)
    assert f"version {read}" in str(stale)
    assert refused(boot, gid, decline, None).code == "offer_not_found"  # no If-Match
    never = {"type": "decline", "offer": "no-such-offer"}
    assert refused(boot, gid, never, read).code == "offer_not_found"
    # choosing again among what Bob may do now is taken
    again = next(a for a in legal(boot, gid, BOB)[1] if a["type"] == "done")["choices"][0]
    assert game_commands.act(boot, gid, BOB["id"], again, "again", read).created


def test_an_offer_withdrawn_after_the_public_log_moved_answers_choice_stale(boot):
    gid = wild_trade(boot)
    offer = offer_to_bob(boot, gid)
    read, decline = bobs_decline(boot, gid, offer)
    game_commands.act(boot, gid, CY["id"], {"type": "done"}, "cy-done", None)
    game_commands.act(boot, gid, ANN["id"], {"type": "withdraw", "offer": offer}, "w", None)
    assert boot.store.load(gid).record.version > read  # the public log moved on
    stale = refused(boot, gid, decline, read)
    assert stale.code == "choice_stale" and "offer_not_found" in str(stale)
    assert refused(boot, gid, decline, None).code == "offer_not_found"

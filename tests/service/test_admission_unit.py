"""An action admitted without a round trip of its own (service.admission) on the in-memory
twins: its append checks that the caller's token is unchanged and that the game's log is
where the process holds it, and counts the call; whatever fails sends the caller the usual
way, and a count past the limit is refused with nothing written."""

from __future__ import annotations

import random

import pytest

from games.schemas import random_action
from service import admission, game_commands, game_queries, players, tokens
from service.admission import OverLimit, Recheck
from service.bootstrap import Bootstrap
from service.limits import token_counter
from tests.service.tables_setup import table
from tests.support.memory_boot import memory_boot

LIMIT = (5, 60)  # calls per minute


@pytest.fixture
def boot() -> Bootstrap:
    tokens.KNOWN.clear()  # this process's known tokens: none from another test
    yield memory_boot()
    tokens.KNOWN.clear()


def seated(boot: Bootstrap) -> tuple[str, dict[str, dict]]:
    """A started game of three players with tokens; who owes first, by seat."""
    made = [players.create_player(boot, n) for n in ("Ann", "Bob", "Cy")]
    rec, _ = table(boot, {"id": made[0]["id"], "name": "Ann"})
    for p in made[1:]:
        rec = game_commands.join(boot, rec.game_id, {"id": p["id"], "name": p["name"]}).record
    by_seat = {rec.seat_of(p["id"]): p for p in made}
    return rec.game_id, by_seat


def owing(boot: Bootstrap, game_id: str, by_seat: dict) -> tuple[dict, dict]:
    """The player who owes now (its token known to this process) and a legal action."""
    rec = boot.store.load(game_id).record
    mover = by_seat[rec.owed()[0].seat]
    assert players.authenticate(boot, mover["token"])  # the token this process knows
    _, specs = game_queries.legal(boot, game_id, mover["id"])
    published = [{"type": x.type, "schema": x.schema, "choices": x.choices} for x in specs]
    return mover, random_action(published, random.Random(3))


def act_on(boot, game_id, player, action, got, enter=None):
    """The action as admitted `got` (service.admission.admit) sends it."""
    return game_commands.act(
        boot,
        game_id,
        player["id"],
        action,
        "k1",
        None,
        loaded=got.game,
        admission=got.admission,
        enter=enter,
    )


def admitted_act(boot, game_id, mover, action):
    got = admission.admit(boot, mover["token"], game_id, LIMIT)
    assert got is not None, "the process holds the game and knows the token"
    return act_on(boot, game_id, mover, action, got), got.admission


def test_an_admitted_action_is_applied_and_counted_once(boot):
    game_id, by_seat = seated(boot)
    before = boot.store.load(game_id).record.version
    mover, action = owing(boot, game_id, by_seat)
    outcome, counted = admitted_act(boot, game_id, mover, action)
    assert outcome.record.version > before
    assert (counted.count.calls, counted.count.limit) == (1, LIMIT)
    digest = tokens.hash_token(mover["token"])
    assert boot.limits.count(token_counter(digest), 60)[0] == 2  # this call was the first


def test_a_token_revoked_after_it_was_known_sends_the_action_the_usual_way(boot):
    game_id, by_seat = seated(boot)
    mover, action = owing(boot, game_id, by_seat)
    got = admission.admit(boot, mover["token"], game_id, LIMIT)
    me = players.authenticate(boot, mover["token"])
    tokens.revoke(boot, me["id"], me["token_id"])  # revoked through another process, say
    before = boot.store.load(game_id).record.version
    with pytest.raises(Recheck):
        act_on(boot, game_id, mover, action, got)
    assert boot.store.load(game_id).record.version == before  # nothing written
    assert got.admission.count is None  # nor counted


def test_past_its_limit_an_admitted_action_is_refused_with_nothing_written(boot):
    game_id, by_seat = seated(boot)
    mover, action = owing(boot, game_id, by_seat)
    digest = tokens.hash_token(mover["token"])
    for _ in range(5):  # the minute's five calls spent already
        boot.limits.count(token_counter(digest), 60)
    before = boot.store.load(game_id).record.version
    with pytest.raises(OverLimit):
        admitted_act(boot, game_id, mover, action)
    assert boot.store.load(game_id).record.version == before


def test_an_action_decided_on_a_game_held_behind_the_log_is_decided_again_on_the_log(boot):
    game_id, by_seat = seated(boot)
    mover, action = owing(boot, game_id, by_seat)
    got = admission.admit(boot, mover["token"], game_id, LIMIT)
    game_commands.act(boot, game_id, mover["id"], action, "k0", None)  # its first try
    then = boot.store.load(game_id).record
    again, action2 = owing(boot, game_id, by_seat)
    with pytest.raises(Recheck):  # the held game is a move behind: no answer on it
        act_on(boot, game_id, again, action2, got)
    assert boot.store.load(game_id).record.version == then.version
    outcome = act_on(  # the usual way, once the caller's first trip loaded it
        boot, game_id, again, action2, got, enter=lambda: boot.store.load(game_id)
    )
    assert outcome.record.version > then.version

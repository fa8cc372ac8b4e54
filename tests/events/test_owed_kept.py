"""A record's owed decisions are computed once, by the fold that made the record: what it
keeps is what the rules say of its state, at every step of a game (and nothing once the
game is no longer active)."""

import games
from cli.compose import create_app
from events.fold import _with, fold
from events.record import ACTIVE, Record
from tests.conftest import TEST_CONFIG
from tests.events.snapshot_helpers import played


def test_the_owed_decisions_a_fold_keeps_are_the_rules_answer_at_every_step(redis_url):
    app = create_app({**TEST_CONFIG, "REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url})
    gid = played(app, moves=40)
    store = app.extensions["marketfold"].store
    rec, steps = Record(gid), 0
    for env in store.read(gid):
        rec = fold(rec, env)
        fresh = _with(rec, {})  # the same record without what the fold kept
        assert rec.owed() == fresh.owed()
        if rec.status == ACTIVE and rec.state is not None:
            assert rec.owed() == games.get(rec.ruleset).owed(rec.state)
            steps += 1
        else:
            assert rec.owed() == []
    assert steps >= 20

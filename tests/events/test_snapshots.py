"""Loading from a snapshot plus the tail gives the same record as folding the whole log."""

import random

import pytest

from api import create_app
from events import keys
from events.record import Record, fold_all
from tests.conftest import TEST_CONFIG
from tests.service.helpers import bearer, by_seat, new_game, new_players, random_action


@pytest.fixture
def small_snapshots(redis_url):
    return create_app(
        {**TEST_CONFIG, "REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url, "SNAPSHOT_EVERY": 5}
    )


def played(app, moves=25):
    client = app.test_client()
    players = new_players(client, 4)
    gid = new_game(client, players)
    seats, rnd = by_seat(client, gid, players), random.Random(5)
    for _ in range(moves):
        game = client.get(f"/v1/games/{gid}").get_json()
        if game["status"] != "active":
            break
        seat = game["owed"][0]["seat"]
        legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(seats[seat])).get_json()
        client.post(
            f"/v1/games/{gid}/actions",
            json=random_action(rnd, legal["actions"]),
            headers=bearer(seats[seat]),
        )
    return gid


def full_fold(store, gid):
    return fold_all(Record(gid), store.read(gid))


def test_a_snapshot_is_kept_and_loading_from_it_equals_the_full_fold(small_snapshots, r):
    gid = played(small_snapshots)
    store = small_snapshots.extensions["marketfold"].store
    snap_version = int(r.hget(keys.game_snapshot(gid), "version"))
    store.forget()  # read the snapshot, not the record this process holds
    loaded = store.load(gid).record
    assert 0 < snap_version <= loaded.version < snap_version + 5 + 60
    assert loaded == full_fold(store, gid)


def test_an_unreadable_snapshot_is_ignored_and_the_log_refolded(small_snapshots, r):
    gid = played(small_snapshots)
    store = small_snapshots.extensions["marketfold"].store
    r.hset(keys.game_snapshot(gid), "blob", b"garbage")
    store.forget()
    assert store.load(gid).record == full_fold(store, gid)


def test_a_snapshot_never_goes_backwards(small_snapshots, r):
    gid = played(small_snapshots)
    store = small_snapshots.extensions["marketfold"].store
    newest = int(r.hget(keys.game_snapshot(gid), "version"))
    old = fold_all(Record(gid), store.read(gid)[:3])
    store.save_snapshot(old)
    assert int(r.hget(keys.game_snapshot(gid), "version")) == newest

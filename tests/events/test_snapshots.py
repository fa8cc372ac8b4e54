"""Loading from a snapshot plus the tail gives the same record as folding the whole log."""

from events import keys
from events.fold import fold_all
from events.record import Record
from tests.events.snapshot_helpers import full_fold, played


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

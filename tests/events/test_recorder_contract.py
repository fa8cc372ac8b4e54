"""The recorder's contract, run on Redis and in memory alike: appends all or nothing at
the expected version, idempotency keys, reads, snapshots, seeds, and the repository's
loads (from a snapshot, or from the record it holds) on top of either. The in-memory
recorder stands in for Redis in the service's unit tests (tests/service/
test_use_cases_unit.py) only because it passes these."""

import pytest

from events import codec
from events.memory_recorder import MemoryRecorder
from events.record import Record
from events.recorder import RedisRecorder
from events.recording import Append, Log, Writes
from events.refusals import Duplicate, StaleVersion
from events.repository import GameRepository
from tests.events.recorders import append, envelopes


# the Redis one reaches the session's Redis server without naming a fixture the unit tier
# sees (tests/conftest.py): marked `process`, so only the in-memory one is a unit test
@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def recorder(request):
    if request.param == "memory":
        return MemoryRecorder()
    return RedisRecorder(request.getfixturevalue("r"))


@pytest.fixture
def store(recorder):
    return GameRepository(recorder)


def test_append_writes_every_event_of_a_command_in_order_with_a_hash_chain(store):
    assert append(store, "g1", envelopes(1, 3), expected=0) == 3
    read = store.read("g1")
    assert [e["seq"] for e in read] == [1, 2, 3]
    assert read[0]["prev"] == codec.GENESIS
    for before, after in zip(read, read[1:]):
        assert after["prev"] == before["hash"]
    assert all(codec.chain_hash(e) == e["hash"] for e in read)


def test_append_at_a_stale_version_writes_nothing(store):
    append(store, "g1", envelopes(1, 2), expected=0)
    with pytest.raises(StaleVersion) as err:
        append(store, "g1", envelopes(2, 5), expected=1)
    assert err.value.actual == 2
    assert len(store.read("g1")) == 2


def test_a_reused_idempotency_key_appends_nothing_and_returns_the_first_result(store):
    append(store, "g1", envelopes(1, 1), expected=0, idem="p:k1", result="first")
    with pytest.raises(Duplicate) as dup:
        append(store, "g1", envelopes(2, 1), expected=1, idem="p:k1", result="second")
    assert dup.value.stored == "first"
    assert len(store.read("g1")) == 1
    assert store.load("g1", "p:k1").idem == "first"
    assert store.load("g1", "p:other").idem is None


def test_read_after_returns_only_the_tail(store):
    append(store, "g1", envelopes(1, 10), expected=0)
    assert [e["seq"] for e in store.read("g1", after=7)] == [8, 9, 10]
    assert [e["seq"] for e in store.read("g1", after=2, count=3)] == [3, 4, 5]


def test_a_log_exists_once_it_has_an_entry(store):
    assert not store.exists("g1")
    append(store, "g1", envelopes(1, 1), expected=0)
    assert store.exists("g1") and not store.exists("g2")


def test_the_first_seed_kept_stays(recorder):
    log = Log.game("g1")
    assert recorder.keep_seed(log, b"first") == b"first"
    assert recorder.keep_seed(log, b"second") == b"first"
    assert recorder.load(log).seed == b"first"


def test_a_load_reads_the_snapshot_and_the_tail_after_it(recorder, store):
    append(store, "g1", envelopes(1, 3), expected=0)
    blob = b'{"not": "read by the recorder"}'
    recorder.save_snapshot(Log.game("g1"), 2, blob)
    recorder.save_snapshot(Log.game("g1"), 1, b"older: never replaces a newer one")
    stored = recorder.load(Log.game("g1"))
    assert (stored.blob, stored.version) == (blob, 2)
    assert [codec.loads(e)["seq"] for e in stored.tail] == [3]
    assert codec.loads(stored.at)["seq"] == 2


def test_a_load_from_a_version_held_reads_only_what_follows_it(recorder, store):
    append(store, "g1", envelopes(1, 5), expected=0)
    stored = recorder.load(Log.game("g1"), have=3)
    assert stored.blob is None and stored.version == 3
    assert [codec.loads(e)["seq"] for e in stored.tail] == [4, 5]
    assert codec.loads(stored.at)["seq"] == 3
    beyond = recorder.load(Log.game("g1"), have=9)  # not in the log: from the snapshot
    assert beyond.version == 0 and len(beyond.tail) == 5


def test_the_repository_loads_the_same_record_fresh_held_or_from_a_snapshot(store):
    """A fresh load folds the log; a held record is read on from where it stands."""
    env = envelopes(1, 6)
    append(store, "g1", env, expected=0)
    store.forget()
    fresh = store.load("g1").record
    assert fresh.version == 6 and fresh.last_hash == env[-1]["hash"]
    more = envelopes(7, 2, env[-1]["hash"])
    append(store, "g1", more, expected=6)
    held = store.load("g1").record
    store.forget()
    assert held == store.load("g1").record
    assert held.version == 8 and held.last_hash == more[-1]["hash"]


def test_an_append_holds_the_record_it_is_given(store):
    env = envelopes(1, 2)
    rec = Record("g1")
    assert store.held("g1") is None
    append(store, "g1", env, expected=0, record=rec)
    assert store.load("g1").record.version == 2  # loads (and holds) the log's own fold


def test_a_league_log_is_appended_and_read_like_a_game_log(recorder):
    log = Log.league("l1")
    done = recorder.append(Append(log=log, envelopes=envelopes(1, 2), expected=0, idem="x"))
    assert done.version == 2 and codec.loads(done.last)["seq"] == 2
    assert [e["seq"] for e in recorder.read(log.events)] == [1, 2]
    with pytest.raises(Duplicate):
        recorder.append(Append(log=log, envelopes=envelopes(3, 1), expected=2, idem="x"))


def test_follow_up_writes_run_only_with_an_append_that_wrote(recorder, store):
    then = Writes()
    then.zadd("mf:test:index", {"g1": 1.0})
    append(store, "g1", envelopes(1, 1), expected=0)
    with pytest.raises(StaleVersion):
        append(store, "g1", envelopes(2, 1), expected=0, then=then)
    append(store, "g1", envelopes(2, 1), expected=1, then=then)
    assert followed(recorder, "mf:test:index") == [("ZADD", "mf:test:index", "1.0", "g1")]


def followed(recorder, key: str) -> list[tuple]:
    """The follow-up writes done to `key`: read back from Redis, or kept in memory."""
    if isinstance(recorder, MemoryRecorder):
        return [c for c in recorder.writes if c[1] == key]
    members = recorder.redis.zrange(key, 0, -1, withscores=True)
    return [("ZADD", key, repr(score), member.decode()) for member, score in members]


def test_private_steps_go_to_their_own_stream_and_a_stale_count_of_them_conflicts(store):
    append(store, "g1", envelopes(1, 2), expected=0)
    step = {**envelopes(2, 1)[0], "seq": 2, "private": 1, "visible_to": [0, 1]}
    codec.seal([step], codec.GENESIS)
    after = Record("g1", version=2, private=1)
    assert append(store, "g1", [step], expected=2, record=after) == 2  # no public version
    assert len(store.read("g1")) == 2 and store.read_private("g1") == [step]
    # a public append decided before that step (0 private steps known) must decide again
    with pytest.raises(StaleVersion):
        append(store, "g1", envelopes(3, 1), expected=2, record=Record("g1", version=3))
    assert len(store.read("g1")) == 2
    assert (
        append(store, "g1", envelopes(3, 1), expected=2, record=Record("g1", version=3, private=1))
        == 3
    )
    # a load from the start folds the step after the event it followed
    store.forget()
    stored = store.recorder.load(Log.game("g1"))
    assert (len(stored.tail), [codec.loads(e) for e in stored.private]) == (3, [step])

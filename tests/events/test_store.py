"""The event store on a real Redis: atomic appends, version checks, idempotency, snapshots."""

import pytest
import redis

from events import codec, keys
from events.store import Admission, Duplicate, EventStore, OverLimit, Recheck, StaleVersion


def envelopes(start: int, n: int, prev: str = codec.GENESIS) -> list[dict]:
    out = [
        {
            "seq": start + i,
            "type": "game.Note",
            "data": {"i": start + i},
            "actor": "system",
            "at": codec.now_iso(),
            "cause": "test",
            "visible_to": "all",
        }
        for i in range(n)
    ]
    return codec.seal(out, prev)


@pytest.fixture
def store(r):
    return EventStore(r)


def test_append_writes_every_event_of_a_command_in_order_with_a_hash_chain(store):
    assert store.append("g1", envelopes(1, 3), expected=0) == 3
    read = store.read("g1")
    assert [e["seq"] for e in read] == [1, 2, 3]
    assert read[0]["prev"] == codec.GENESIS
    for before, after in zip(read, read[1:]):
        assert after["prev"] == before["hash"]
    assert all(codec.chain_hash(e) == e["hash"] for e in read)


def test_append_at_a_stale_version_writes_nothing(store):
    store.append("g1", envelopes(1, 2), expected=0)
    with pytest.raises(StaleVersion) as err:
        store.append("g1", envelopes(2, 5), expected=1)
    assert err.value.actual == 2
    assert len(store.read("g1")) == 2


def test_a_reused_idempotency_key_appends_nothing_and_returns_the_first_result(store):
    store.append("g1", envelopes(1, 1), expected=0, idem="p:k1", result="first")
    with pytest.raises(Duplicate) as dup:
        store.append("g1", envelopes(2, 1), expected=1, idem="p:k1", result="second")
    assert dup.value.stored == "first"
    assert len(store.read("g1")) == 1


def test_appends_and_loads_go_on_after_redis_forgets_its_scripts(store, r):
    """The store runs its scripts by digest; a restarted or flushed Redis has none."""
    r.script_flush()
    assert store.append("g1", envelopes(1, 2), expected=0) == 2
    r.script_flush()
    store.forget()
    assert store.load("g1").record.version == 2
    r.script_flush()
    with pytest.raises(StaleVersion):
        store.append("g1", envelopes(2, 1), expected=1)


def test_a_pooled_connection_the_server_closed_is_not_used(store, redis_url):
    """After Redis closes the store's idle connections (a restart, a timeout), the next
    call still goes through, on a new connection."""
    store.append("g1", envelopes(1, 1), expected=0)
    admin = redis.Redis.from_url(redis_url)
    mine = admin.client_id()
    killed = [c for c in admin.client_list() if c["id"] != mine]
    assert killed
    for client in killed:
        admin.client_kill_filter(_id=client["id"])
    admin.close()
    assert store.append("g1", envelopes(2, 1), expected=1) == 2


def test_an_admitted_append_checks_the_token_and_the_entry_it_was_decided_on(store, r):
    """An append for a caller admitted without a first round trip (api.admission) writes
    only if the token's record is unchanged and the log's entry at the expected version
    is the one the process holds; it counts the call and refuses it past the limit."""
    store.append("g1", envelopes(1, 2), expected=0)
    store.forget()
    store.load("g1")  # the process now holds version 2 and its stored entry
    record, entry = store._held["g1"]
    r.set("tok", b"record")

    def admitted(limit: int = 5) -> Admission:
        return Admission("tok", b"record", "count", 60_000, limit)

    def more(expected: int) -> list[dict]:
        return envelopes(expected + 1, 1, store.read("g1")[-1]["hash"])

    store._held["g1"] = (record, b"the entry of another log")
    with pytest.raises(Recheck):
        store.append("g1", more(2), expected=2, admission=admitted())
    store._held["g1"] = (record, entry)
    r.set("tok", b"revoked, or its use recorded since")
    with pytest.raises(Recheck):
        store.append("g1", more(2), expected=2, admission=admitted())
    assert r.get("count") is None and len(store.read("g1")) == 2  # nothing counted or written
    r.set("tok", b"record")
    first = admitted()
    assert store.append("g1", more(2), expected=2, admission=first) == 3
    assert (first.calls, 0 < first.left_ms <= 60_000) == (1, True)
    store.load("g1")  # holds version 3
    with pytest.raises(OverLimit):
        store.append("g1", more(3), expected=3, admission=admitted(limit=1))
    assert len(store.read("g1")) == 3 and int(r.get("count")) == 2


def test_read_after_returns_only_the_tail(store):
    store.append("g1", envelopes(1, 10), expected=0)
    assert [e["seq"] for e in store.read("g1", after=7)] == [8, 9, 10]


def test_keys_of_one_game_share_a_cluster_hash_tag():
    tags = {
        k.split("{")[1].split("}")[0]
        for k in (
            keys.game_events("x"),
            keys.game_snapshot("x"),
            keys.game_idem("x"),
            keys.game_seed("x"),
        )
    }
    assert tags == {"g:x"}


def test_private_steps_go_to_their_own_stream_and_a_stale_count_of_them_conflicts(store, r):
    from events.record import Record

    store.append("g1", envelopes(1, 2), expected=0)
    step = {**envelopes(2, 1)[0], "seq": 2, "private": 1, "visible_to": [0, 1]}
    codec.seal([step], codec.GENESIS)
    after = Record("g1", version=2, private=1)
    assert store.append("g1", [step], expected=2, record=after) == 2  # no public version
    assert r.xlen(keys.game_events("g1")) == 2 and r.xlen(keys.game_private("g1")) == 1
    assert store.read_private("g1") == [step]
    # a public append decided before that step (0 private steps known) must decide again
    with pytest.raises(StaleVersion):
        store.append("g1", envelopes(3, 1), expected=2, record=Record("g1", version=3))
    assert len(store.read("g1")) == 2
    assert store.append("g1", envelopes(3, 1), expected=2, record=Record("g1", version=3, private=1)) == 3

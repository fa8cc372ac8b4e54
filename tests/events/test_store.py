"""The games' repository on a real Redis's recorder: what only Redis does (scripts run by
digest, pooled connections, the admitted append's guard, cluster hash tags). What every
recorder does is in test_recorder_contract.py."""

import pytest
import redis

from events import keys
from events.recorder import RedisRecorder
from events.refusals import GuardFailed, GuardRefused, StaleVersion
from events.repository import GameRepository
from service.admission import Admission
from tests.events.recorders import append, envelopes


@pytest.fixture
def store(r):
    return GameRepository(RedisRecorder(r))


def test_appends_and_loads_go_on_after_redis_forgets_its_scripts(store, r):
    """The store runs its scripts by digest; a restarted or flushed Redis has none."""
    r.script_flush()
    assert append(store, "g1", envelopes(1, 2), expected=0) == 2
    r.script_flush()
    store.forget()
    assert store.load("g1").record.version == 2
    r.script_flush()
    with pytest.raises(StaleVersion):
        append(store, "g1", envelopes(2, 1), expected=1)


def test_a_pooled_connection_the_server_closed_is_not_used(store, redis_url):
    """After Redis closes the store's idle connections (a restart, a timeout), the next
    call still goes through, on a new connection."""
    append(store, "g1", envelopes(1, 1), expected=0)
    admin = redis.Redis.from_url(redis_url)
    mine = admin.client_id()
    killed = [c for c in admin.client_list() if c["id"] != mine]
    assert killed
    for client in killed:
        admin.client_kill_filter(_id=client["id"])
    admin.close()
    assert append(store, "g1", envelopes(2, 1), expected=1) == 2


def test_an_admitted_append_checks_the_token_and_the_entry_it_was_decided_on(store, r):
    """An append for a caller admitted without a first round trip (service.admission) writes
    only if the token's record is unchanged and the log's entry at the expected version
    is the one the process holds; it counts the call and refuses it past the limit."""
    append(store, "g1", envelopes(1, 2), expected=0)
    store.forget()
    store.load("g1")  # the process now holds version 2 and its stored entry
    record, entry = store._held["g1"]
    r.set("tok", b"record")

    def admitted(limit: int = 5) -> Admission:
        return Admission("tok", b"record", "count", (limit, 60))

    def more(expected: int) -> list[dict]:
        return envelopes(expected + 1, 1, store.read("g1")[-1]["hash"])

    store._held["g1"] = (record, b"the entry of another log")
    with pytest.raises(GuardFailed):
        append(store, "g1", more(2), expected=2, guard=admitted())
    store._held["g1"] = (record, entry)
    r.set("tok", b"revoked, or its use recorded since")
    with pytest.raises(GuardFailed):
        append(store, "g1", more(2), expected=2, guard=admitted())
    assert r.get("count") is None and len(store.read("g1")) == 2  # nothing counted or written
    r.set("tok", b"record")
    first = admitted()
    assert append(store, "g1", more(2), expected=2, guard=first) == 3
    assert (first.count.calls, 0 < first.count.left_ms <= 60_000) == (1, True)
    store.load("g1")  # holds version 3
    with pytest.raises(GuardRefused):
        append(store, "g1", more(3), expected=3, guard=admitted(limit=1))
    assert len(store.read("g1")) == 3 and int(r.get("count")) == 2


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


def test_a_leaf_of_the_public_log_is_written_by_the_appends_own_script(store, r):
    """On one Redis a game's leaf is part of the append that calls for it: written by the
    same script call (so together or not at all), once per leaf id however often it is
    asked for; a refused append writes no leaf."""
    from events.recording import Writes
    from events.tlog import PublicLog

    def calls() -> int:
        stats = r.info("commandstats")
        return sum(v["calls"] for k, v in stats.items() if k in ("cmdstat_evalsha", "cmdstat_eval"))

    then = Writes()
    then.tlog("g1:created", '{"kind":"created"}')
    before = calls()
    append(store, "g1", envelopes(1, 2), expected=0, then=then)
    assert calls() - before == 1  # the append and its leaf: one script call
    log = PublicLog(r)
    assert log.size() == 1 and log.texts(0, 1) == ['{"kind":"created"}']
    with pytest.raises(StaleVersion):  # refused: neither events nor the leaf
        again = Writes()
        again.tlog("g1:ended", '{"kind":"ended"}')
        append(store, "g1", envelopes(2, 1), expected=1, then=again)
    assert log.size() == 1 and log.indexes(["g1:ended"]) == [None]
    once = Writes()
    once.tlog("g1:created", '{"kind":"created"}')
    append(store, "g1", envelopes(3, 1, store.load("g1").record.last_hash), expected=2, then=once)
    assert log.size() == 1  # logged once per id

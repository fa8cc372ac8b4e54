"""The Web Push port's contract (stores/push.py), on Redis and in memory alike: what
service/notify/push.py relies on (subscriptions kept and replaced under their id, listed
oldest first, counted, forgotten once)."""

import pytest

from stores.memory.push import MemoryPush
from stores.push import RedisPush, read_subscriptions, subscriptions_from


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def subs(request):
    if request.param == "memory":
        return MemoryPush()
    return RedisPush(request.getfixturevalue("r"))


def record(id_, created, auth="a"):
    keys = {"p256dh": "k", "auth": auth}
    return {"id": id_, "endpoint": f"https://push.example/{id_}", "keys": keys, "created": created}


def test_a_kept_subscription_reads_back_and_a_later_keep_replaces_it(subs):
    assert subs.subscription("p1", "ps_a") is None
    subs.keep("p1", record("ps_a", "2026-01-01"))
    assert subs.subscription("p1", "ps_a") == record("ps_a", "2026-01-01")
    subs.keep("p1", record("ps_a", "2026-01-01", auth="b"))
    assert subs.subscription("p1", "ps_a")["keys"]["auth"] == "b"
    assert subs.count("p1") == 1
    assert subs.subscription("p2", "ps_a") is None


def test_a_read_subscription_is_a_copy(subs):
    subs.keep("p1", record("ps_a", "2026-01-01"))
    subs.subscription("p1", "ps_a")["endpoint"] = "elsewhere"
    subs.subscriptions("p1")[0]["endpoint"] = "elsewhere"
    assert subs.subscription("p1", "ps_a")["endpoint"] == "https://push.example/ps_a"


def test_subscriptions_are_listed_oldest_first_and_counted(subs):
    assert subs.subscriptions("p1") == [] and subs.count("p1") == 0
    for id_, created in [("ps_b", "2026-01-03"), ("ps_a", "2026-01-01"), ("ps_c", "2026-01-02")]:
        subs.keep("p1", record(id_, created))
    assert [s["id"] for s in subs.subscriptions("p1")] == ["ps_a", "ps_c", "ps_b"]
    assert subs.count("p1") == 3 and subs.count("p2") == 0


def test_forgetting_says_whether_there_was_one(subs):
    subs.keep("p1", record("ps_a", "2026-01-01"))
    subs.keep("p1", record("ps_b", "2026-01-02"))
    assert subs.forget("p1", "ps_a") is True
    assert subs.forget("p1", "ps_a") is False
    assert subs.forget("p2", "ps_b") is False
    assert [s["id"] for s in subs.subscriptions("p1")] == ["ps_b"]


@pytest.mark.process
def test_the_batched_read_on_a_pipeline_reads_what_subscriptions_reads(r):
    subs = RedisPush(r)
    subs.keep("p1", record("ps_b", "2026-01-02"))
    subs.keep("p1", record("ps_a", "2026-01-01"))
    pipe = r.pipeline(transaction=False)
    read_subscriptions(pipe, "p1")
    (raw,) = pipe.execute()
    assert subscriptions_from(raw) == subs.subscriptions("p1")

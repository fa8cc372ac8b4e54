"""The webhooks port's contract (stores/webhooks.py), on Redis and in memory alike: what
service/notify/webhooks.py and webhook_delivery.py rely on (records kept and replaced,
listed oldest first, failures counted per webhook and cleared, the delivery log capped
newest first, a deletion forgetting all three)."""

import pytest

from stores.memory.webhooks import MemoryWebhooks
from stores.webhooks import RedisWebhooks, endpoints_from, read_endpoints


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def hooks(request):
    if request.param == "memory":
        return MemoryWebhooks()
    return RedisWebhooks(request.getfixturevalue("r"))


def record(id_, created, **more):
    return {"id": id_, "url": f"https://example.org/{id_}", "created": created, **more}


def test_a_kept_record_reads_back_as_kept_and_a_later_keep_replaces_it(hooks):
    assert hooks.endpoint("p1", "wh_a") is None
    kept = record("wh_a", "2026-01-02", enabled=True, types=["turn"])
    hooks.keep("p1", kept)
    assert hooks.endpoint("p1", "wh_a") == kept
    hooks.keep("p1", record("wh_a", "2026-01-02", enabled=False, types=[]))
    assert hooks.endpoint("p1", "wh_a")["enabled"] is False
    assert hooks.count("p1") == 1
    assert hooks.endpoint("p2", "wh_a") is None  # another player's webhooks are their own


def test_a_read_record_is_a_copy(hooks):
    hooks.keep("p1", record("wh_a", "2026-01-01", enabled=True))
    hooks.endpoint("p1", "wh_a")["enabled"] = False
    hooks.endpoints("p1")[0]["enabled"] = False
    assert hooks.endpoint("p1", "wh_a")["enabled"] is True


def test_endpoints_are_listed_oldest_first_and_counted(hooks):
    assert hooks.endpoints("p1") == [] and hooks.count("p1") == 0
    for id_, created in [("wh_b", "2026-01-03"), ("wh_a", "2026-01-01"), ("wh_c", "2026-01-02")]:
        hooks.keep("p1", record(id_, created))
    assert [r["id"] for r in hooks.endpoints("p1")] == ["wh_a", "wh_c", "wh_b"]
    assert hooks.count("p1") == 3 and hooks.count("p2") == 0


def test_failures_count_up_per_webhook_past_any_limit_and_clear(hooks):
    assert hooks.failures("p1") == {}
    assert [hooks.count_failure("p1", "wh_a") for _ in range(3)] == [1, 2, 3]
    assert hooks.count_failure("p1", "wh_b") == 1
    assert hooks.failures("p1") == {"wh_a": 3, "wh_b": 1}
    hooks.clear_failures("p1", "wh_a")
    assert hooks.failures("p1") == {"wh_b": 1}
    assert hooks.count_failure("p1", "wh_a") == 1  # a new run starts from one


def test_keeping_with_clear_failures_ends_the_run_and_without_keeps_it(hooks):
    hooks.keep("p1", record("wh_a", "2026-01-01"))
    hooks.count_failure("p1", "wh_a")
    hooks.keep("p1", record("wh_a", "2026-01-01", enabled=False))
    assert hooks.failures("p1") == {"wh_a": 1}
    hooks.keep("p1", record("wh_a", "2026-01-01", enabled=True), clear_failures=True)
    assert hooks.failures("p1") == {}
    assert hooks.endpoint("p1", "wh_a")["enabled"] is True


def test_the_delivery_log_keeps_the_newest_entries_newest_first(hooks):
    assert hooks.deliveries("wh_a", 10) == []
    for n in range(1, 6):
        hooks.log_delivery("wh_a", {"id": f"n_{n}", "attempt": 1}, kept=3)
    assert [e["id"] for e in hooks.deliveries("wh_a", 10)] == ["n_5", "n_4", "n_3"]
    assert [e["id"] for e in hooks.deliveries("wh_a", 2)] == ["n_5", "n_4"]
    assert hooks.deliveries("wh_b", 10) == []


def test_forgetting_a_webhook_drops_its_record_failures_and_log_only(hooks):
    hooks.keep("p1", record("wh_a", "2026-01-01"))
    hooks.keep("p1", record("wh_b", "2026-01-02"))
    for id_ in ("wh_a", "wh_b"):
        hooks.count_failure("p1", id_)
        hooks.log_delivery(id_, {"id": "n_1"}, kept=10)
    hooks.forget("p1", "wh_a")
    assert hooks.endpoint("p1", "wh_a") is None
    assert hooks.failures("p1") == {"wh_b": 1}
    assert hooks.deliveries("wh_a", 10) == []
    assert [r["id"] for r in hooks.endpoints("p1")] == ["wh_b"]
    assert hooks.deliveries("wh_b", 10) == [{"id": "n_1"}]
    hooks.forget("p1", "wh_zz")  # forgetting what is not there is no error


@pytest.mark.process
def test_the_batched_read_on_a_pipeline_reads_what_endpoints_reads(r):
    hooks = RedisWebhooks(r)
    hooks.keep("p1", record("wh_b", "2026-01-02"))
    hooks.keep("p1", record("wh_a", "2026-01-01"))
    pipe = r.pipeline(transaction=False)
    read_endpoints(pipe, "p1")
    (raw,) = pipe.execute()
    assert endpoints_from(raw) == hooks.endpoints("p1")

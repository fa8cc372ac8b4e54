"""Configuration: a cluster store needs its queues on a plain Redis."""

import pytest

from service import config

CLUSTER = "redis+cluster://127.0.0.1:7000,127.0.0.1:7001"


def test_a_cluster_store_without_a_queue_redis_is_refused_with_the_reason():
    with pytest.raises(ValueError, match="RQ_REDIS_URL"):
        config.load({"REDIS_URL": CLUSTER})


def test_a_cluster_store_keeps_its_queues_on_the_redis_named():
    cfg = config.load({"REDIS_URL": CLUSTER, "RQ_REDIS_URL": "redis://127.0.0.1:6400/0"})
    assert config.is_cluster(cfg["REDIS_URL"]) and cfg["RQ_REDIS_URL"].endswith(":6400/0")
    assert config.load({"REDIS_URL": "redis://h:1/0"})["RQ_REDIS_URL"] == "redis://h:1/0"

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


def test_an_app_built_with_overrides_reads_no_environment_variable(monkeypatch):
    from cli import compose

    monkeypatch.setenv("MARKETFOLD_SNAPSHOT_EVERY", "3")
    monkeypatch.setenv("REDIS_URL", "redis://elsewhere:6379/0")
    app = compose.create_app({"REDIS_URL": "redis://127.0.0.1:1/0"})  # connects on first use
    assert app.config["SNAPSHOT_EVERY"] == config.DEFAULTS["SNAPSHOT_EVERY"]
    assert app.config["RQ_REDIS_URL"] == "redis://127.0.0.1:1/0"
    assert app.extensions["marketfold"].config is app.config  # one configuration object
    served = compose.settings()  # what gunicorn's app (cli.wsgi) and the worker are built on
    assert served["SNAPSHOT_EVERY"] == 3 and served["REDIS_URL"] == "redis://elsewhere:6379/0"

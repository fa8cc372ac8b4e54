"""Configuration: a cluster store needs its queues on a plain Redis; the queues through
Sentinel; the replicas an append waits for."""

import pytest

from service import bootstrap, config

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


def test_append_replica_settings_are_read_and_checked():
    cfg = config.load({"APPEND_REPLICAS": "2", "APPEND_REPLICA_AOF": "true"})
    assert cfg["APPEND_REPLICAS"] == 2 and cfg["APPEND_REPLICA_AOF"] is True
    assert config.load({"MARKETFOLD_APPEND_REPLICA_AOF": "no"})["APPEND_REPLICA_AOF"] is False
    assert config.resolve({})["APPEND_REPLICAS"] == 0  # off unless asked
    with pytest.raises(ValueError, match="REDIS_TIMEOUT_S"):  # the socket would give up first
        config.resolve({"APPEND_REPLICAS": 1, "APPEND_REPLICA_TIMEOUT_MS": 2000})
    assert (
        config.resolve(
            {"APPEND_REPLICAS": 1, "APPEND_REPLICA_TIMEOUT_MS": 2000, "REDIS_TIMEOUT_S": 3}
        )["APPEND_REPLICA_TIMEOUT_MS"]
        == 2000
    )
    with pytest.raises(ValueError, match="APPEND_REPLICAS"):
        config.resolve({"APPEND_REPLICAS": -1})
    with pytest.raises(ValueError, match="integers"):
        config.resolve({"APPEND_REPLICAS": "some"})


def test_a_sentinel_url_names_the_sentinels_the_service_and_the_database():
    assert config.is_sentinel("redis+sentinel://h1:26379/q")
    spec = bootstrap.sentinel_spec("redis+sentinel://:s3cret@h1:26379,h2:26380,h3/queues/2")
    assert spec.sentinels == [("h1", 26379), ("h2", 26380), ("h3", 26379)]
    assert (spec.service, spec.db, spec.username, spec.password) == ("queues", 2, None, "s3cret")
    assert bootstrap.sentinel_spec("redis+sentinel://a:1/q").db == 0
    for bad in ("redis+sentinel://a:1", "redis+sentinel:///q", "redis+sentinel://a:1/q/x"):
        with pytest.raises(ValueError, match="SERVICE"):
            bootstrap.sentinel_spec(bad)


def test_witness_keys_are_c2sp_cosignature_keys_or_the_server_does_not_start():
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from events import note

    public = Ed25519PrivateKey.generate().public_key()
    w1 = note.Verifier("w1.example", note.COSIGNATURE, public).text()
    w2 = note.Verifier("w2.example", note.COSIGNATURE, public).text()
    assert config.load({"MARKETFOLD_WITNESS_KEYS": f"{w1}, {w2}"})["WITNESS_KEYS"] == [w1, w2]
    with pytest.raises(ValueError, match="WITNESS_KEYS"):
        config.resolve({"WITNESS_KEYS": [w1[:-3]]})
    with pytest.raises(ValueError, match="not a cosignature key"):
        config.resolve({"WITNESS_KEYS": [note.Verifier("n", note.ED25519, public).text()]})
    assert config.resolve({"PUBLIC_URL": "https://games.example.org/"})["TLOG_ORIGIN"] == (
        "games.example.org/marketfold-games"
    )

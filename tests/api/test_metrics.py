"""`GET /metrics`: the operator's figures in the Prometheus text format, added up over
every process of the service, readable only by the operator; the dashboard and alert
rules in deploy/ name only metrics the service exports."""

from __future__ import annotations

import json
import re
import time

import pytest
import requests
import yaml
from prometheus_client.parser import text_string_to_metric_families

from cli.compose import create_app
from service.notify import prefs
from tests.api.helpers import bearer, new_game, new_players
from tests.conftest import ROOT, TEST_CONFIG, api_server
from tests.notify import smtp_sink


def scrape(text: str) -> dict[tuple[str, tuple], float]:
    """Every sample: (name, sorted labels) -> value."""
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_count_requests_appends_and_games(client):
    before = scrape(client.get("/metrics").get_data(as_text=True))
    players = new_players(client, 3)
    new_game(client, players)
    res = client.get("/metrics")
    assert res.status_code == 200 and res.content_type.startswith("text/plain")
    after = scrape(res.get_data(as_text=True))

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    route = {"route": "/v1/games/<game_id>/join", "status": "200"}
    assert grew("marketfold_http_requests_total", **route) == 3
    assert grew("marketfold_http_requests_total", route="/v1/players", status="201") == 3
    assert grew("marketfold_appends_total", log="game") == 4  # created, three joins
    assert grew("marketfold_append_duration_seconds_count") == 4
    assert value(after, "marketfold_games", status="active") == 1
    assert value(after, "marketfold_workers") == 0  # no worker in this test
    assert value(after, "marketfold_sweeper_beat_age_seconds") == -1
    unmatched = {"route": "unmatched", "status": "404"}
    client.get("/v1/no/such/route")  # a path's ids never become series of their own
    assert (
        value(
            scrape(client.get("/metrics").get_data(as_text=True)),
            "marketfold_http_requests_total",
            **unmatched,
        )
        >= 1
    )


def test_metrics_are_the_operators(redis_url, client):
    away = client.get("/metrics", environ_base={"REMOTE_ADDR": "203.0.113.9"})
    assert away.status_code == 403 and away.get_json()["code"] == "metrics_forbidden"
    assert "METRICS_TOKEN" in away.get_json()["detail"]
    app = create_app({**TEST_CONFIG, "REDIS_URL": redis_url, "METRICS_TOKEN": "s3cret-figures"})
    guarded = app.test_client()
    assert guarded.get("/metrics").status_code == 401  # even from this machine
    player = new_players(guarded, 1)[0]
    assert guarded.get("/metrics", headers=bearer(player)).status_code == 401
    ok = guarded.get("/metrics", headers={"Authorization": "Bearer s3cret-figures"})
    assert ok.status_code == 200 and b"marketfold_http_requests_total" in ok.data


def exported(text: str) -> set[str]:
    """The sample names the exposition's families can have."""
    names = set()
    for family in text_string_to_metric_families(text):
        suffixes = {
            "counter": ("_total", "_created"),
            "histogram": ("_bucket", "_sum", "_count", "_created"),
            "gauge": ("",),
        }[family.type]
        names |= {family.name + s for s in suffixes}
    return names


def test_the_dashboard_and_alert_rules_name_only_exported_metrics(client):
    names = exported(client.get("/metrics").get_data(as_text=True))
    rules = yaml.safe_load((ROOT / "deploy" / "alerts.yml").read_text())
    exprs = [rule["expr"] for group in rules["groups"] for rule in group["rules"]]
    assert {rule["alert"] for group in rules["groups"] for rule in group["rules"]} >= {
        "MarketfoldWorkersDown",
        "MarketfoldQueueLag",
        "MarketfoldDeadlinesLate",
        "MarketfoldStoreErrors",
        "MarketfoldDiskFilling",
    }
    board = json.loads((ROOT / "deploy" / "grafana-dashboard.json").read_text())
    exprs += [t["expr"] for panel in board["panels"] for t in panel["targets"]]
    used = {m for e in exprs for m in re.findall(r"\bmarketfold_[a-z_]+", e)}
    assert used and used <= names, f"not exported: {sorted(used - names)}"
    assert {"marketfold_queue_depth", "marketfold_deadline_lateness_seconds_bucket"} <= used


@pytest.mark.slow
def test_metrics_add_up_the_api_processes_and_the_workers(redis_url, worker_process, tmp_path):
    figures = tmp_path / "metrics"
    figures.mkdir()
    env = {"PROMETHEUS_MULTIPROC_DIR": str(figures)}
    controller, sink, smtp_url = smtp_sink.start()  # a real mail server: deliveries count
    worker_process(**env, MARKETFOLD_SMTP_URL=smtp_url)
    deps = create_app({**TEST_CONFIG, "REDIS_URL": redis_url}).extensions["marketfold"]
    with api_server(redis_url, processes=2, **env) as (base, _):
        s = requests.Session()
        players = [s.post(base + "/v1/players", json={"name": f"m{i}"}).json() for i in range(3)]
        m0 = players[0]["id"]
        verified = {"address": "m0@example.org", "verified": True}
        prefs.save(deps, m0, {**prefs.load(deps, m0), "email": verified})
        gid = s.post(
            base + "/v1/games",
            json={"ruleset": "goblin-market", "players": 3, "decision_timeout_s": 1},
            headers=bearer(players[0]),
        ).json()["id"]
        for p in players:
            s.post(f"{base}/v1/games/{gid}/join", headers=bearer(p)).raise_for_status()
        ends = time.monotonic() + 30  # nobody plays: a worker applies the defaults
        while True:
            samples = scrape(s.get(base + "/metrics").text)
            if value(samples, "marketfold_deadlines_applied_total", ruleset="goblin-market"):
                break
            assert time.monotonic() < ends, "no deadline applied shows in /metrics"
            time.sleep(0.3)
        assert value(samples, "marketfold_jobs_total", job="expire", status="applied") >= 1
        assert value(samples, "marketfold_deadline_lateness_seconds_count") >= 1
        joins = value(
            samples,
            "marketfold_http_requests_total",
            route="/v1/games/<game_id>/join",
            status="200",
        )
        assert joins == 3  # whichever process answered each
        assert value(samples, "marketfold_appends_total", log="game") >= 5  # a default too
        assert value(samples, "marketfold_workers") == 1
        sink.wait(1)  # a turn of m0 mailed (the one player with an address: nobody plays)
        ends = time.monotonic() + 10
        while not value(samples, "marketfold_notifications_total", channel="email", outcome="sent"):
            assert time.monotonic() < ends, "the mailed notification does not show in /metrics"
            time.sleep(0.3)
            samples = scrape(s.get(base + "/metrics").text)
    controller.stop()

"""Rate limits per token and per IP, with standard headers and 429 + Retry-After."""

import pytest

from cli.compose import create_app
from tests.api.helpers import bearer


@pytest.fixture
def tight(redis_url):
    app = create_app(
        {
            "REDIS_URL": redis_url,
            "RQ_REDIS_URL": redis_url,
            "RATE_LIMIT_ANON": "3/minute",
            "RATE_LIMIT_TOKEN": "5/minute",
        }
    )
    return app.test_client()


def test_anonymous_calls_are_limited_per_ip_with_headers(tight):
    answers = [tight.get("/v1/rulesets") for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[0].headers["RateLimit-Policy"] == '"default";q=3;w=60'
    assert answers[0].headers["RateLimit"].startswith('"default";r=2;t=')
    assert answers[2].headers["RateLimit"].startswith('"default";r=0;t=')
    refused = answers[3]
    assert refused.headers["Content-Type"] == "application/problem+json"
    assert refused.get_json()["code"] == "rate_limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60


def test_each_token_has_its_own_budget(tight):
    players = [tight.post("/v1/players", json={"name": n}).get_json() for n in ("a", "b")]
    for _ in range(5):
        assert tight.get("/v1/rulesets", headers=bearer(players[0])).status_code == 200
    assert tight.get("/v1/rulesets", headers=bearer(players[0])).status_code == 429
    ok = tight.get("/v1/rulesets", headers=bearer(players[1]))
    assert ok.status_code == 200 and ok.headers["RateLimit-Policy"] == '"default";q=5;w=60'


def test_health_and_the_spec_are_not_limited(tight):
    assert all(tight.get("/healthz").status_code == 200 for _ in range(6))


def test_counting_goes_on_after_the_server_forgets_its_scripts(tight, r):
    """A restarted or flushed Redis has no scripts: the count must neither fail open
    (unlimited calls) nor fail the call."""
    player = tight.post("/v1/players", json={"name": "a"}).get_json()
    answers = []
    for _ in range(6):
        r.script_flush()
        answers.append(tight.get("/v1/rulesets", headers=bearer(player)))
    assert [a.status_code for a in answers] == [200] * 5 + [429]
    assert answers[4].headers["RateLimit"].startswith('"default";r=0;t=')


def behind(redis_url, proxies):
    config = {"REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url, "RATE_LIMIT_ANON": "2/minute"}
    return create_app({**config, "TRUSTED_PROXIES": proxies}).test_client()


def test_behind_a_trusted_balancer_each_forwarded_caller_has_its_own_budget(redis_url):
    client = behind(redis_url, 1)
    balancer = {"REMOTE_ADDR": "10.0.0.9"}  # every call arrives from the balancer's address

    def calls(caller):
        headers = {"X-Forwarded-For": caller}
        return [
            client.get("/v1/rulesets", headers=headers, environ_base=balancer).status_code
            for _ in range(3)
        ]

    assert calls("203.0.113.1") == [200, 200, 429]
    assert calls("203.0.113.2") == [200, 200, 429]  # another caller, not the balancer's budget


def test_without_trusted_proxies_a_forwarded_header_is_not_believed(redis_url):
    client = behind(redis_url, 0)
    spoofed = [
        client.get("/v1/rulesets", headers={"X-Forwarded-For": f"198.51.100.{i}"}).status_code
        for i in range(3)
    ]
    assert spoofed == [200, 200, 429]  # a client cannot mint addresses to dodge its limit

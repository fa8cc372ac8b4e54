"""CORS: no cross-origin access unless the operator lists origins; a listed origin gets its
preflight answered (the headers a client sends: bearer token, Idempotency-Key, If-Match,
Last-Event-ID) and may read the answers and their rate-limit headers."""

from __future__ import annotations

import pytest

from cli.compose import create_app
from service import config
from tests.api.helpers import bearer, new_players

SITE = "https://cards.example"


@pytest.fixture
def cors_client(redis_url):
    listed = f"{SITE},https://other.example"  # as the environment gives it
    app = create_app({"REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url, "CORS_ORIGINS": listed})
    return app.test_client()


def test_by_default_no_origin_is_allowed(client):
    res = client.get("/v1/rulesets", headers={"Origin": SITE})
    assert res.status_code == 200
    assert "Access-Control-Allow-Origin" not in res.headers
    pre = client.options(
        "/v1/games", headers={"Origin": SITE, "Access-Control-Request-Method": "POST"}
    )
    assert "Access-Control-Allow-Origin" not in pre.headers


def test_a_listed_origin_may_call_with_a_token_and_read_the_answer(cors_client):
    pre = cors_client.options(
        "/v1/games/g_x/actions",
        headers={
            "Origin": SITE,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
        },
    )
    assert pre.status_code == 200
    assert pre.headers["Access-Control-Allow-Origin"] == SITE
    allowed = pre.headers["Access-Control-Allow-Headers"].lower()
    for header in ["authorization", "content-type", "idempotency-key"]:
        assert header in allowed
    assert "POST" in pre.headers["Access-Control-Allow-Methods"]
    assert "Access-Control-Allow-Credentials" not in pre.headers  # a header token, no cookies
    (ana,) = new_players(cors_client, 1)
    res = cors_client.get("/v1/players/me/games", headers={**bearer(ana), "Origin": SITE})
    assert res.status_code == 200
    assert res.headers["Access-Control-Allow-Origin"] == SITE
    assert "ratelimit" in res.headers["Access-Control-Expose-Headers"].lower()
    # a cache keeps one answer per origin and per token
    vary = ", ".join(res.headers.getlist("Vary"))
    assert "Origin" in vary and "Authorization" in vary


def test_another_origin_stays_refused(cors_client):
    res = cors_client.get("/v1/rulesets", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in res.headers


def test_the_setting_reads_a_list_or_comma_separated_origins():
    assert config.origins({"CORS_ORIGINS": "https://a.example/, https://b.example"}) == [
        "https://a.example",
        "https://b.example",
    ]
    assert config.load({"MARKETFOLD_CORS_ORIGINS": '["https://a.example"]'})["CORS_ORIGINS"] == [
        "https://a.example"
    ]
    assert config.load({})["CORS_ORIGINS"] == []


def test_with_one_listed_origin_every_answer_varies_by_origin_too_and_patch_is_allowed(redis_url):
    """#49.7: with one origin listed flask-cors sent no `Vary: Origin`, and the app's own
    `Vary` was all a cache saw: it could hand a listed origin's answer (with
    `Access-Control-Allow-Origin`) to another origin, or the reverse. `PATCH /players/me`
    (a handle) was refused by the preflight."""
    app = create_app({"REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url, "CORS_ORIGINS": SITE})
    cors_client = app.test_client()
    (ana,) = new_players(cors_client, 1)
    for origin in (SITE, "https://evil.example"):
        for path in ("/v1/rulesets", "/v1/players/me", "/v1/games/g_none"):
            res = cors_client.get(path, headers={**bearer(ana), "Origin": origin})
            vary = {v.strip() for v in ", ".join(res.headers.getlist("Vary")).split(",")}
            assert {"Origin", "Authorization", "Accept-Language"} <= vary, (path, vary)
    pre = cors_client.options(
        "/v1/players/me",
        headers={
            "Origin": SITE,
            "Access-Control-Request-Method": "PATCH",
            "Access-Control-Request-Headers": "authorization, content-type",
        },
    )
    assert pre.headers["Access-Control-Allow-Origin"] == SITE
    assert "PATCH" in pre.headers["Access-Control-Allow-Methods"]
    res = cors_client.patch(
        "/v1/players/me", json={"handle": "ana_cors"}, headers={**bearer(ana), "Origin": SITE}
    )
    assert res.status_code == 200 and res.headers["Access-Control-Allow-Origin"] == SITE


@pytest.mark.parametrize(
    "path, method",
    [
        ("/v1/leagues/l_x/seat-commitment", "PUT"),
        ("/v1/players/p_x/roles/organizer", "PUT"),
        ("/v1/players/me", "PATCH"),
        ("/v1/games/g_x", "DELETE"),
    ],
)
def test_a_listed_origin_may_use_every_method_the_api_has(cors_client, path, method):
    pre = cors_client.options(
        path, headers={"Origin": SITE, "Access-Control-Request-Method": method}
    )
    assert pre.headers["Access-Control-Allow-Origin"] == SITE
    assert method in pre.headers["Access-Control-Allow-Methods"].split(", ")

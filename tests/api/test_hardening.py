"""Input that used to crash a route is refused at the edge with 422 and writes nothing."""

import pytest

from tests.api.helpers import bearer, new_game, new_players, stored
from tests.leagues.helpers import league_body, operator

LONE = "\\ud800"  # as JSON text: a lone high surrogate, which is not a character


def post_raw(client, url, text, headers=None):
    return client.post(url, data=text, content_type="application/json", headers=headers or {})


def assert_refused(res, field):
    assert res.status_code == 422, res.get_json()
    assert res.mimetype == "application/problem+json"
    body = res.get_json()
    assert body["code"] == "invalid_body"
    assert field in body["errors"], body


@pytest.fixture
def table(client, app):
    op = operator(client, app)
    players = new_players(client, 3)
    gid = new_game(client, players)
    lid = client.post("/v1/leagues", json=league_body(), headers=bearer(op)).get_json()["id"]
    return op, players, gid, lid


def test_a_lone_surrogate_is_refused_on_every_route_that_takes_a_body(client, r, table):
    op, players, gid, lid = table
    routes = [
        ("/v1/players", '{"name": "a%sb"}', None, "name"),
        ("/v1/games", '{"ruleset": "goblin-market%s", "players": 3}', players[0], "ruleset"),
        (f"/v1/games/{gid}/actions", '{"type": "pass", "x": "%s"}', players[0], "x"),
        (f"/v1/games/{gid}/actions", '{"type": "bid", "amount": 1, "%s": 1}', players[1], "_body"),
        ("/v1/verify", '{"events": ["%s"]}', None, "events"),
        ("/v1/leagues", '{"name": "L%s"}', op, "name"),
        (f"/v1/leagues/{lid}/members", '{"player": "%s"}', op, "player"),
        ("/v1/players", '["%s"]', None, "_body"),
    ]
    before = stored(r)
    for url, template, who, field in routes:
        headers = bearer(who) if who else None
        assert_refused(post_raw(client, url, template % LONE, headers), field)
        assert_refused(post_raw(client, url, template % "\\uD800", headers), field)
    assert stored(r) == before


def test_a_surrogate_pair_is_one_character_and_welcome(client):
    res = post_raw(client, "/v1/players", '{"name": "gob \\ud83d\\ude00"}')
    assert res.status_code == 201, res.get_json()
    assert res.get_json()["name"] == "gob \U0001f600"
    assert post_raw(client, "/v1/players", '{"name": "back\\\\ud800slash"}').status_code == 201


@pytest.mark.parametrize(
    "bad",
    [
        "99999999999999999999-0",
        "0-99999999999999999999",
        "18446744073709551616",
        "18446744073709551615-18446744073709551616",
    ],
)
def test_a_feed_id_out_of_range_is_refused(client, bad):
    (ana,) = new_players(client, 1)
    feed = "/v1/players/me/feed"
    for kwargs, name in (
        ({"headers": {**bearer(ana), "Last-Event-ID": bad}}, "Last-Event-ID"),
        ({"headers": bearer(ana), "query_string": {"after": bad}}, "after"),
    ):
        res = client.get(feed, **kwargs)
        res.close()  # the code before this check answered 200 and began to stream
        assert res.status_code == 422, res.status
        assert res.mimetype == "application/problem+json"
        body = res.get_json()
        assert body["code"] == "invalid_header"
        assert list(body["errors"]) == [name]


def test_the_largest_feed_id_is_accepted(app, client):
    app.config["SSE_MAX_S"] = 0.2
    (ana,) = new_players(client, 1)
    top = "18446744073709551615-18446744073709551615"
    res = client.get("/v1/players/me/feed", headers={**bearer(ana), "Last-Event-ID": top})
    assert res.status_code == 200
    res.close()

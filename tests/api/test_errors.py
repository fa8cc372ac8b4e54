"""Bad input on every route gets its status and code, as problem+json, and writes nothing."""

import pytest

from events import keys
from tests.api.helpers import bearer, by_seat, new_game, new_players

FORGED = {"Authorization": "Bearer not-a-real-token"}


@pytest.fixture
def table(client):
    """A started 3-player game: (game id, {seat: player}, the seat that owes a bid)."""
    players = new_players(client, 3)
    gid = new_game(client, players)
    seats = by_seat(client, gid, players)
    owed = client.get(f"/v1/games/{gid}").get_json()["owed"][0]["seat"]
    return gid, seats, owed


def stored(r):
    """Return the keys that hold data (rate-limit counters and the data format's mark,
    written when the app starts, aside)."""
    mark = keys.data_format().encode()
    return sorted(
        k for k in r.keys() if not k.startswith(keys.rate_limits().encode()) and k != mark
    )


def log_size(r, gid):
    return r.xlen(f"mf:{{g:{gid}}}:events")


def expect(res, status, code, field=None):
    assert res.status_code == status, res.get_json()
    assert res.headers["Content-Type"] == "application/problem+json"
    body = res.get_json()
    assert body["code"] == code and body["status"] == status
    assert {"type", "title", "detail"} <= set(body)
    if field:
        assert field in body["errors"], body


def test_create_player_refuses_bad_bodies(client, r):
    expect(
        client.post("/v1/players", data="nope", content_type="application/json"),
        422,
        "invalid_body",
    )
    expect(client.post("/v1/players", json={"name": ""}), 422, "invalid_body", "name")
    expect(client.post("/v1/players", json={}), 422, "invalid_body", "name")
    expect(
        client.post("/v1/players", json={"name": "a", "admin": True}), 422, "invalid_body", "admin"
    )
    expect(client.post("/v1/players", json={"name": "x" * 70_000}), 413, "body_too_large")
    assert stored(r) == []


def test_create_game_refuses_bad_input(client, r):
    (p,) = new_players(client, 1)
    before = stored(r)
    body = {"ruleset": "goblin-market", "players": 4}
    expect(client.post("/v1/games", json=body), 401, "unauthorized")
    expect(client.post("/v1/games", json=body, headers=FORGED), 401, "unauthorized")
    h = bearer(p)
    expect(
        client.post("/v1/games", json={**body, "ruleset": "chess"}, headers=h),
        422,
        "unknown_ruleset",
        "ruleset",
    )
    expect(
        client.post("/v1/games", json={**body, "players": 2}, headers=h),
        422,
        "invalid_players",
        "players",
    )
    expect(
        client.post("/v1/games", json={**body, "players": "4"}, headers=h),
        422,
        "invalid_body",
        "players",
    )
    expect(
        client.post("/v1/games", json={**body, "options": {"edition": "fr"}}, headers=h),
        422,
        "invalid_option",
        "options.edition",
    )
    expect(
        client.post("/v1/games", json={**body, "options": {"speed": 1}}, headers=h),
        422,
        "invalid_option",
        "options.speed",
    )
    expect(
        client.post("/v1/games", json={**body, "decision_timeout_s": 0}, headers=h),
        422,
        "invalid_body",
        "decision_timeout_s",
    )
    assert stored(r) == before


def test_join_refuses_unknown_games_second_joins_and_full_tables(client, r, table):
    gid, seats, _ = table
    (late,) = new_players(client, 1, "late")
    size = log_size(r, gid)
    expect(client.post("/v1/games/nope/join", headers=bearer(late)), 404, "game_not_found")
    expect(client.post(f"/v1/games/{gid}/join"), 401, "unauthorized")
    expect(client.post(f"/v1/games/{gid}/join", headers=bearer(seats[0])), 409, "game_not_waiting")
    expect(client.post(f"/v1/games/{gid}/join", headers=bearer(late)), 409, "game_not_waiting")
    assert log_size(r, gid) == size


def test_joining_twice_before_the_start_is_refused(client, r):
    players = new_players(client, 2)
    gid = client.post(
        "/v1/games", json={"ruleset": "goblin-market", "players": 3}, headers=bearer(players[0])
    ).get_json()["id"]
    client.post(f"/v1/games/{gid}/join", headers=bearer(players[0]))
    expect(client.post(f"/v1/games/{gid}/join", headers=bearer(players[0])), 409, "already_seated")
    seat = client.get(f"/v1/games/{gid}", headers=bearer(players[0])).get_json()
    assert seat["status"] == "waiting" and len(seat["seats"]) == 1
    expect(
        client.post(f"/v1/games/{gid}/actions", json={"type": "pass"}, headers=bearer(players[0])),
        409,
        "game_not_started",
    )


def test_reading_refuses_unknown_games_and_forged_tokens(client, table):
    gid, _, _ = table
    expect(client.get("/v1/games/does-not-exist"), 404, "game_not_found")
    expect(client.get("/v1/games/bad%20id!"), 404, "game_not_found")
    expect(client.get(f"/v1/games/{gid}", headers=FORGED), 401, "unauthorized")
    expect(client.get(f"/v1/games/{gid}/events?after=-1"), 422, "invalid_query", "after")
    expect(client.get("/v1/games/nope/events"), 404, "game_not_found")


def test_legal_needs_a_seat(client, table):
    gid, _, _ = table
    (stranger,) = new_players(client, 1, "s")
    expect(client.get(f"/v1/games/{gid}/legal"), 401, "unauthorized")
    expect(client.get(f"/v1/games/{gid}/legal", headers=bearer(stranger)), 403, "not_seated")
    expect(client.get("/v1/games/nope/legal", headers=bearer(stranger)), 404, "game_not_found")


def test_actions_refuse_every_kind_of_bad_input(client, r, table):
    gid, seats, owed = table
    other = seats[(owed + 1) % 3]
    me = bearer(seats[owed])
    (stranger,) = new_players(client, 1, "s")
    size = log_size(r, gid)
    url = f"/v1/games/{gid}/actions"
    expect(client.post(url, json={"type": "pass"}), 401, "unauthorized")
    expect(client.post(url, json={"type": "pass"}, headers=bearer(stranger)), 403, "not_seated")
    expect(
        client.post("/v1/games/nope/actions", json={"type": "pass"}, headers=me),
        404,
        "game_not_found",
    )
    expect(client.post(url, json={"type": "pass"}, headers=bearer(other)), 409, "not_your_turn")
    expect(
        client.post(url, json={"type": "bid", "amount": 11}, headers=me), 409, "insufficient_coins"
    )
    expect(client.post(url, json={"type": "take_all"}, headers=me), 409, "action_not_allowed")
    expect(
        client.post(url, json={"type": "bid", "amount": "7"}, headers=me),
        422,
        "invalid_action",
        "amount",
    )
    expect(
        client.post(url, json={"type": "bid", "amount": True}, headers=me),
        422,
        "invalid_action",
        "amount",
    )
    expect(client.post(url, json={"type": "fly"}, headers=me), 422, "invalid_action", "type")
    expect(client.post(url, json={"amount": 3}, headers=me), 422, "invalid_body", "type")
    expect(client.post(url, json=[1, 2], headers=me), 422, "invalid_body")
    expect(
        client.post(url, data="{", content_type="application/json", headers=me), 422, "invalid_body"
    )
    expect(
        client.post(url, json={"type": "bid", "amount": 3, "pad": "x" * 70_000}, headers=me),
        413,
        "body_too_large",
    )
    expect(
        client.post(url, json={"type": "pass"}, headers={**me, "If-Match": '"1"'}),
        412,
        "version_mismatch",
    )
    expect(
        client.post(url, json={"type": "pass"}, headers={**me, "If-Match": "soon"}),
        422,
        "invalid_header",
        "If-Match",
    )
    expect(
        client.post(url, json={"type": "pass"}, headers={**me, "Idempotency-Key": "x" * 200}),
        422,
        "invalid_header",
        "Idempotency-Key",
    )
    assert log_size(r, gid) == size
    res = client.post(url, json={"type": "bid", "amount": 5}, headers={**me, "If-Match": str(size)})
    assert res.status_code == 201
    nxt = client.get(f"/v1/games/{gid}").get_json()["owed"][0]["seat"]
    expect(
        client.post(url, json={"type": "bid", "amount": 5}, headers=bearer(seats[nxt])),
        409,
        "bid_too_low",
    )


def test_unknown_routes_and_methods_are_problems_too(client):
    expect(client.get("/v1/nothing"), 404, "not_found")
    expect(client.delete("/v1/players"), 405, "method_not_allowed")

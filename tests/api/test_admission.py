"""An action right after its caller's GET /legal takes one Redis round trip (api.entry,
service.admission), and answers exactly as the usual path would: same checks, same
count, same refusals."""

import random

import pytest
import redis.connection

from cli.compose import create_app
from events import audit
from tests.api.helpers import bearer, by_seat, new_game, new_players, random_action
from tests.conftest import TEST_CONFIG


def limited_app(redis_url, limit="1000/minute"):
    return create_app(
        {
            **TEST_CONFIG,
            "REDIS_URL": redis_url,
            "RQ_REDIS_URL": redis_url,
            "RATE_LIMIT_TOKEN": limit,
        }
    )


@pytest.fixture
def trips(monkeypatch):
    """The commands of every round trip to Redis, in order (a pipeline is one)."""
    sent: list[bytes] = []
    original = redis.connection.Connection.send_packed_command

    def spy(self, command, *args, **kwargs):
        sent.append(b"".join(command) if isinstance(command, list) else command)
        return original(self, command, *args, **kwargs)

    monkeypatch.setattr(redis.connection.Connection, "send_packed_command", spy)
    return sent


def turn(client, gid, seats, rnd):
    """GET /legal for the seat that owes, then return (its auth header, an action)."""
    seat = client.get(f"/v1/games/{gid}").get_json()["owed"][0]["seat"]
    legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(seats[seat])).get_json()
    return bearer(seats[seat]), random_action(rnd, legal["actions"])


def version(client, gid):
    return client.get(f"/v1/games/{gid}").get_json()["version"]


def test_an_action_after_its_legal_actions_is_one_round_trip(client, trips):
    players = new_players(client, 3)
    gid = new_game(client, players)
    seats, rnd = by_seat(client, gid, players), random.Random(1)
    for n in range(6):
        headers, action = turn(client, gid, seats, rnd)
        trips.clear()
        res = client.post(f"/v1/games/{gid}/actions", json=action, headers=headers)
        assert res.status_code == 201, res.get_json()
        if n:  # the first one also gave this Redis the script
            assert len(trips) == 1 and b"EVALSHA" in trips[0], [t[:60] for t in trips]
        assert res.headers["RateLimit"].startswith('"default";r=')


def test_a_token_revoked_after_legal_is_refused_and_nothing_is_written(client, r):
    players = new_players(client, 3)
    gid = new_game(client, players)
    seats = by_seat(client, gid, players)
    headers, action = turn(client, gid, seats, random.Random(2))
    before = version(client, gid)
    token_id = client.get("/v1/players/me/tokens", headers=headers).get_json()["tokens"][0]["id"]
    other = client.post("/v1/players/me/tokens", headers=headers).get_json()
    assert (
        client.delete(f"/v1/players/me/tokens/{token_id}", headers=bearer(other)).status_code == 204
    )
    res = client.post(f"/v1/games/{gid}/actions", json=action, headers=headers)
    assert res.status_code == 401 and res.get_json()["code"] == "unauthorized"
    assert version(client, gid) == before


def tight_game(redis_url):
    """A seated game on an app allowing 8 calls a minute per token; return (client, game
    id, the auth header of the seat that owes)."""
    client = limited_app(redis_url, "8/minute").test_client()
    players = new_players(client, 3)
    gid = new_game(client, players)
    seats = by_seat(client, gid, players)
    seat = client.get(f"/v1/games/{gid}").get_json()["owed"][0]["seat"]
    return client, gid, bearer(seats[seat])


def spend(client, gid, headers, left):
    """GET /legal until `left` calls of the caller's budget remain; return the last answer."""
    while True:
        legal = client.get(f"/v1/games/{gid}/legal", headers=headers)
        assert legal.status_code == 200
        if legal.headers["RateLimit"].startswith(f'"default";r={left};'):
            return legal


def test_an_admitted_action_past_the_limit_gets_429_and_writes_nothing(redis_url):
    client, gid, headers = tight_game(redis_url)
    legal = spend(client, gid, headers, 0)
    before = version(client, gid)
    action = random_action(random.Random(3), legal.get_json()["actions"])
    res = client.post(f"/v1/games/{gid}/actions", json=action, headers=headers)
    assert res.status_code == 429 and res.get_json()["code"] == "rate_limited"
    assert 1 <= int(res.headers["Retry-After"]) <= 60
    assert version(client, gid) == before


def test_an_admitted_call_refused_by_the_rules_is_counted(redis_url):
    client, gid, headers = tight_game(redis_url)
    spend(client, gid, headers, 1)
    wrong = client.post(f"/v1/games/{gid}/actions", json={"type": "nonsense"}, headers=headers)
    assert wrong.status_code == 422  # counted although nothing was appended
    assert wrong.headers["RateLimit"].startswith('"default";r=0;')
    client.get(f"/v1/games/{gid}/legal", headers=headers)  # 429, and holds the game again
    again = client.post(f"/v1/games/{gid}/actions", json={"type": "nonsense"}, headers=headers)
    assert again.status_code == 429  # past the limit: 429 first, as on the usual path


def test_an_action_on_a_game_another_process_moved_on_is_decided_again(redis_url):
    """Two API processes: the one holding an old record of the game finds the log moved on
    at its append, loads it again and applies the action on the new state."""
    first, second = (limited_app(redis_url).test_client() for _ in range(2))
    players = new_players(first, 3)
    gid = new_game(first, players)
    seats, rnd = by_seat(first, gid, players), random.Random(4)
    for _ in range(4):
        turn(first, gid, seats, rnd)  # `first` holds the game as it stands now
        headers, action = turn(second, gid, seats, rnd)
        assert (
            second.post(f"/v1/games/{gid}/actions", json=action, headers=headers).status_code == 201
        )
        headers, action = turn(second, gid, seats, rnd)  # the next seat, seen by `second`
        moved_on = version(second, gid)
        res = first.post(f"/v1/games/{gid}/actions", json=action, headers=headers)
        assert res.status_code == 201, res.get_json()
        assert res.get_json()["events"][0]["seq"] == moved_on + 1
    for p in players:  # end the game, so that its bundle is public and whole
        first.post(f"/v1/games/{gid}/resign", headers=bearer(p))
    bundle = first.get(f"/v1/games/{gid}/export").get_json()
    assert audit.verify(bundle).ok


def test_a_player_seated_through_another_process_is_never_told_not_seated(redis_url):
    """#27.2: a process that showed the waiting game (it holds that record, from before
    the seats were taken) and knows the caller's token must not decide the caller's
    action on it: what is refused there is decided again on the log as it stands."""
    first, second = (limited_app(redis_url).test_client() for _ in range(2))
    players = new_players(first, 3)
    created = first.post(
        "/v1/games", json={"ruleset": "goblin-market", "players": 3}, headers=bearer(players[0])
    )
    gid = created.get_json()["id"]
    assert first.get(f"/v1/games/{gid}").get_json()["status"] == "waiting"  # held there
    for p in players:
        assert second.post(f"/v1/games/{gid}/join", headers=bearer(p)).status_code == 200
    seats, rnd = by_seat(second, gid, players), random.Random(5)
    for _ in range(3):
        headers, action = turn(second, gid, seats, rnd)
        first.get("/v1/games", headers=headers)  # `first` knows the token, not the seats
        res = first.post(f"/v1/games/{gid}/actions", json=action, headers=headers)
        assert res.status_code in (201, 202), res.get_json()
    stale = first.post(
        f"/v1/games/{gid}/actions", json=action, headers={**headers, "If-Match": '"1"'}
    )
    assert stale.get_json()["code"] != "not_seated", stale.get_json()

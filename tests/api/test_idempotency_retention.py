"""Idempotency records are small and kept for a window: a retry is answered as the first
call was, from the log, until `IDEM_KEEP_S` after the game ends."""

import random
import time

from cli.compose import create_app
from events import keys
from tests.api.helpers import bearer, by_seat, new_game, new_players, random_action
from tests.conftest import TEST_CONFIG


def post(client, gid, seats, seat, action, key):
    headers = {**bearer(seats[seat]), "Idempotency-Key": key}
    return client.post(f"/v1/games/{gid}/actions", json=action, headers=headers)


def test_a_retry_after_others_acted_gets_the_first_answer_with_who_owed_then(client):
    players = new_players(client, 3)
    gid = new_game(client, players)
    seats, rnd = by_seat(client, gid, players), random.Random(3)
    answers = []
    for i in range(4):
        game = client.get(f"/v1/games/{gid}").get_json()
        seat = game["owed"][0]["seat"]
        legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(seats[seat])).get_json()
        action = random_action(rnd, legal["actions"])
        answers.append((seat, action, post(client, gid, seats, seat, action, f"k{i}")))
    version = client.get(f"/v1/games/{gid}").get_json()["version"]
    seat, action, first = answers[0]
    again = post(client, gid, seats, seat, action, "k0")
    assert again.status_code == first.status_code
    assert again.get_json() == first.get_json()  # events, version and owed as answered then
    assert client.get(f"/v1/games/{gid}").get_json()["version"] == version


def test_a_finished_games_records_expire_after_the_window_and_a_retry_then_meets_the_end(
    redis_url, r
):
    app = create_app(
        {**TEST_CONFIG, "REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url, "IDEM_KEEP_S": 1}
    )
    client = app.test_client()
    players = new_players(client, 3)
    gid = new_game(client, players)
    seats, rnd, n = by_seat(client, gid, players), random.Random(1), 0
    while (game := client.get(f"/v1/games/{gid}").get_json())["status"] == "active":
        assert n == 0 or r.ttl(keys.game_idem(gid)) == -1  # kept while the game is played
        seat = game["owed"][0]["seat"]
        legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(seats[seat])).get_json()
        action = random_action(rnd, legal["actions"])
        n, last = n + 1, (seat, action, post(client, gid, seats, seat, action, f"k{n}"))
    seat, action, first = last
    assert 0 < r.ttl(keys.game_idem(gid)) <= 1
    again = post(client, gid, seats, seat, action, f"k{n - 1}")
    assert again.status_code == first.status_code and again.get_json() == first.get_json()
    time.sleep(1.2)
    assert not r.exists(keys.game_idem(gid))
    late = post(client, gid, seats, seat, action, f"k{n - 1}")
    assert late.status_code == 409, late.get_json()

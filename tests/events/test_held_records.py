"""Each process holds the newest record of recent games and then reads only the entries
after it; two processes writing one game, or a log replaced behind a process's back,
still load exactly the fold of the log."""

import random

from cli.compose import create_app
from events import keys
from events.fold import fold_all
from events.record import Record
from tests.api.helpers import bearer, by_seat, new_game, new_players, random_action
from tests.conftest import TEST_CONFIG


def app_on(redis_url):
    return create_app({**TEST_CONFIG, "REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url})


def test_two_processes_taking_turns_on_one_game_each_load_the_whole_log(redis_url):
    one, two = app_on(redis_url), app_on(redis_url)
    clients = [one.test_client(), two.test_client()]
    players = new_players(clients[0], 3)
    gid = new_game(clients[0], players)
    seats, rnd = by_seat(clients[1], gid, players), random.Random(4)
    for turn in range(30):
        client = clients[turn % 2]
        seat = client.get(f"/v1/games/{gid}").get_json()["owed"][0]["seat"]
        legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(seats[seat])).get_json()
        action = random_action(rnd, legal["actions"])
        res = client.post(f"/v1/games/{gid}/actions", json=action, headers=bearer(seats[seat]))
        assert res.status_code in (201, 202), res.get_json()
    for app in (one, two):
        store = app.extensions["marketfold"].store
        assert store.load(gid).record == fold_all(Record(gid), store.read(gid))


def test_a_log_replaced_behind_the_process_is_loaded_afresh(redis_url, r):
    app = app_on(redis_url)
    client = app.test_client()
    store = app.extensions["marketfold"].store
    first = new_game(client, new_players(client, 3))
    other = new_game(client, new_players(client, 3, prefix="q"))
    assert store.load(first).record.game_id == first  # held now
    for suffix in ("events", "snapshot", "seed"):  # the first game's keys get other's log
        r.copy(f"mf:{{g:{other}}}:{suffix}", f"mf:{{g:{first}}}:{suffix}", replace=True)
    assert r.xlen(keys.game_events(first)) == r.xlen(keys.game_events(other))
    loaded = store.load(first).record
    assert loaded.last_hash == store.load(other).record.last_hash
    assert [s.player for s in loaded.seats] == [s.player for s in store.load(other).record.seats]

"""Games played over the app for the snapshot tests, and the record folded from a whole log."""

import random

from events.fold import fold_all
from events.record import Record
from tests.api.helpers import bearer, by_seat, new_game, new_players, random_action


def played(app, moves=25):
    client = app.test_client()
    players = new_players(client, 4)
    gid = new_game(client, players)
    seats, rnd = by_seat(client, gid, players), random.Random(5)
    for _ in range(moves):
        game = client.get(f"/v1/games/{gid}").get_json()
        if game["status"] != "active":
            break
        seat = game["owed"][0]["seat"]
        legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(seats[seat])).get_json()
        client.post(
            f"/v1/games/{gid}/actions",
            json=random_action(rnd, legal["actions"]),
            headers=bearer(seats[seat]),
        )
    return gid


def full_fold(store, gid):
    return fold_all(Record(gid), store.read(gid))

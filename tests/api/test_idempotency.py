"""Retries and races: nothing is lost, nothing is duplicated."""

import random
import threading

from events import codec
from events.fold import fold_all
from events.record import Record
from tests.api.helpers import bearer, by_seat, new_game, new_players, random_action


def owed_seat(client, gid):
    return client.get(f"/v1/games/{gid}").get_json()["owed"][0]["seat"]


def test_a_retried_request_with_the_same_key_appends_once_and_returns_the_first_result(client):
    players = new_players(client, 3)
    gid = new_game(client, players)
    seats = by_seat(client, gid, players)
    seat = owed_seat(client, gid)
    headers = {**bearer(seats[seat]), "Idempotency-Key": "retry-1"}
    first = client.post(
        f"/v1/games/{gid}/actions", json={"type": "bid", "amount": 3}, headers=headers
    )
    again = client.post(
        f"/v1/games/{gid}/actions", json={"type": "bid", "amount": 3}, headers=headers
    )
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json()
    log = client.get(f"/v1/games/{gid}/events").get_json()
    assert sum(e["type"] == "goblin-market.BidPlaced" for e in log["events"]) == 1


def test_the_same_key_with_another_body_is_refused(client):
    players = new_players(client, 3)
    gid = new_game(client, players)
    seats = by_seat(client, gid, players)
    headers = {**bearer(seats[owed_seat(client, gid)]), "Idempotency-Key": "k"}
    client.post(f"/v1/games/{gid}/actions", json={"type": "bid", "amount": 3}, headers=headers)
    version = client.get(f"/v1/games/{gid}").get_json()["version"]
    res = client.post(
        f"/v1/games/{gid}/actions", json={"type": "bid", "amount": 4}, headers=headers
    )
    assert res.status_code == 422 and res.get_json()["code"] == "idempotency_key_reused"
    assert client.get(f"/v1/games/{gid}").get_json()["version"] == version


def test_sixteen_threads_racing_on_one_game_lose_and_duplicate_nothing(client, app):
    players = new_players(client, 4)
    gid = new_game(client, players)
    seats = by_seat(client, gid, players)
    accepted: list[dict] = []
    lock = threading.Lock()

    def play(n: int) -> None:
        rnd = random.Random(n)
        c = app.test_client()
        for i in range(12):
            seat = rnd.randrange(4)
            legal = c.get(f"/v1/games/{gid}/legal", headers=bearer(seats[seat])).get_json()
            if not legal["actions"]:
                continue
            action = random_action(rnd, legal["actions"])
            headers = {**bearer(seats[seat]), "Idempotency-Key": f"t{n}-{i}"}
            for _ in range(1 + rnd.randrange(2)):  # sometimes retry with the same key
                res = c.post(f"/v1/games/{gid}/actions", json=action, headers=headers)
                assert res.status_code in (201, 409), res.get_json()
                if res.status_code == 201:
                    with lock:
                        accepted.append(res.get_json())

    threads = [threading.Thread(target=play, args=(n,)) for n in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    log = app.extensions["marketfold"].store.read(gid)
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
    assert all(e["hash"] == codec.chain_hash(e) for e in log)
    assert all(b["prev"] == a["hash"] for a, b in zip(log, log[1:]))
    by_seq = {e["seq"]: e for e in log}
    for answer in accepted:  # every acknowledged event is in the log, at its place
        for event in answer["events"]:
            assert by_seq[event["seq"]]["hash"] == event["hash"]
    seqs_of: dict[str, list[int]] = {}
    for e in log:
        if e["actor"] != "system":
            seqs_of.setdefault(e["cause"], []).append(e["seq"])
    for seqs in seqs_of.values():  # one key, one command: a single unbroken run of events
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    folded = fold_all(Record(gid), log)
    served = client.get(f"/v1/games/{gid}").get_json()
    assert served["version"] == folded.version
    assert served["view"] == folded.game.view(folded.state, None, "en")
    assert len(accepted) > 0

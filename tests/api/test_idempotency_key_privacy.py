"""A player's Idempotency-Key (its events' `cause`) is its own until the game ends: others
see `hidden`, without the salt that keeps the hash from being searched; the export after
the end holds every key and verifies for everyone."""

import random

from events import audit
from tests.api.helpers import bearer, by_seat, new_game, new_players, play_to_end


def test_the_key_is_shown_to_its_author_only_until_the_end(client, app):
    people = new_players(client, 3)
    gid = new_game(client, people)
    seats = by_seat(client, gid, people)
    seat = client.get(f"/v1/games/{gid}").get_json()["owed"][0]["seat"]
    key = "bid-derived-from-body-amount-1"
    res = client.post(
        f"/v1/games/{gid}/actions",
        json={"type": "bid", "amount": 1},
        headers={**bearer(seats[seat]), "Idempotency-Key": key},
    )
    assert res.status_code == 201, res.get_json()
    mine = res.get_json()["events"]
    assert mine and all(e["cause"] == key and "salt" in e for e in mine)  # the author's answer
    seqs = {e["seq"] for e in mine}

    other = next(s for s in seats if s != seat)
    views = {
        "author": client.get(f"/v1/games/{gid}/events", headers=bearer(seats[seat])),
        "other seat": client.get(f"/v1/games/{gid}/events", headers=bearer(seats[other])),
        "spectator": client.get(f"/v1/games/{gid}/events"),
        "other's export": client.get(f"/v1/games/{gid}/export", headers=bearer(seats[other])),
    }
    for who, answer in views.items():
        assert answer.status_code == 200
        text = answer.get_data(as_text=True)
        shown = [e for e in answer.get_json()["events"] if e["seq"] in seqs]
        assert len(shown) == len(seqs), who
        if who == "author":
            assert all(e["cause"] == key and "salt" in e and "command" in shown[0] for e in shown)
        else:
            assert key not in text, who
            assert all(e["cause"] == "hidden" and "salt" not in e for e in shown), who
            assert "command" not in shown[0], who

    play_to_end(client, app, gid, seats, random.Random(5))
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    ended = [e for e in bundle["events"] if e["seq"] in seqs]
    assert all(e["cause"] == key and "salt" in e for e in ended)
    assert audit.verify(bundle).ok

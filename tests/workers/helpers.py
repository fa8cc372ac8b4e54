"""Helpers for the worker tests: a Sorcerous Futures table brought to a closed auction's
sealed bids, the bids, the reveals, and a wait."""

from tests.api.helpers import bearer, by_seat, new_game, new_players

REVEALED = "sorcerous-futures.SealedBidsRevealed"


def reveals(client, gid, headers=None):
    events = client.get(f"/v1/games/{gid}/events", headers=headers or {}).get_json()["events"]
    return [e for e in events if e["type"] == REVEALED]


def to_sealed_phase(client, gid, seats):
    """Act for whoever owes until a closed auction's sealed bids are owed by all four."""
    while True:
        game = client.get(f"/v1/games/{gid}").get_json()
        kinds = {o["kind"] for o in game["owed"]}
        if kinds == {"sealed_bid"} and len(game["owed"]) == 4:
            return game
        owed = game["owed"][0]
        legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(seats[owed["seat"]]))
        actions = {a["type"]: a for a in legal.get_json()["actions"]}
        if "random_crowns" in actions:
            action = {"type": "random_crowns"}
        elif "start_auction" in actions:
            action = next(c for c in actions["start_auction"]["choices"] if c["format"] == "closed")
        else:
            action = {"type": "pass"} if "pass" in actions else actions[next(iter(actions))]
        res = client.post(
            f"/v1/games/{gid}/actions", json=action, headers=bearer(seats[owed["seat"]])
        )
        assert res.status_code in (201, 202), res.get_json()


def sealed_table(client, **body):
    players = new_players(client, 4)
    gid = new_game(client, players, ruleset="sorcerous-futures", **body)
    seats = by_seat(client, gid, players)
    return gid, seats, to_sealed_phase(client, gid, seats)


def bid(client, gid, seats, seat, amount):
    return client.post(
        f"/v1/games/{gid}/actions",
        json={"type": "sealed_bid", "amount": amount},
        headers=bearer(seats[seat]),
    )

"""Sorcerous Futures played end to end through the API, with a real worker resolving the
sealed bids of every closed auction."""

from __future__ import annotations

import random

from tests.api.helpers import (
    bearer,
    by_seat,
    new_game,
    new_players,
    random_action,
    wait_for_owed,
)

RULESET = "sorcerous-futures"


def _choose(rnd: random.Random, actions: list[dict]) -> dict:
    """Pick a legal action; call closed auctions more often than open ones."""
    starts = [c for a in actions if a["type"] == "start_auction" for c in a["choices"]]
    if starts and rnd.random() < 0.7:
        return rnd.choice([c for c in starts if c["format"] == "closed"])
    return random_action(rnd, actions)


def _check_sealed_bid_is_hidden(client, gid: str, players: list[dict], seat: int, seq: int):
    for other in [None, *[p for s, p in enumerate(players) if s != seat]]:
        headers = bearer(other) if other else {}
        feed = client.get(f"/v1/games/{gid}/events", headers=headers).get_json()["events"]
        shown = next(e for e in feed if e["seq"] == seq)
        assert shown["redacted"] is True and shown["data"] == {"seat": seat}


def test_a_four_player_game_with_closed_auctions_resolved_by_a_worker(client, worker_process):
    worker_process()
    players = new_players(client, 4, prefix="sorcerer")
    gid = new_game(client, players, ruleset=RULESET, options={"sly_excuse": True})
    seats, rnd = by_seat(client, gid, players), random.Random(11)
    players_by_seat = [seats[s] for s in range(4)]
    answers: dict[str, set[int]] = {}
    sealed_checked = False
    game = client.get(f"/v1/games/{gid}").get_json()
    while game["status"] == "active":
        owed = game["owed"][0]
        player = seats[owed["seat"]]
        legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(player)).get_json()
        res = client.post(
            f"/v1/games/{gid}/actions",
            json=_choose(rnd, legal["actions"]),
            headers=bearer(player),
        )
        assert res.status_code in (201, 202), res.get_json()
        answers.setdefault(owed["kind"], set()).add(res.status_code)
        body = res.get_json()
        mine = [e for e in body["events"] if e["type"].endswith(".SealedBidSubmitted")]
        if mine and not sealed_checked:
            _check_sealed_bid_is_hidden(client, gid, players_by_seat, owed["seat"], mine[0]["seq"])
            sealed_checked = True
        game = wait_for_owed(client, gid)
    assert game["status"] == "finished"
    assert answers["sealed_bid"] == {202}, "a sealed bid is answered 202 (pending)"
    assert answers["auction"] <= {201, 202} and 201 in answers["crowns"]
    result = game["result"]
    assert sorted(s["seat"] for s in result["standings"]) == [0, 1, 2, 3]
    assert result["winners"] and all(
        s["place"] == 1 for s in result["standings"] if s["seat"] in result["winners"]
    )
    log = client.get(f"/v1/games/{gid}/events").get_json()["events"]
    revealed = [e for e in log if e["type"] == "sorcerous-futures.SealedBidsRevealed"]
    assert revealed and all(e["actor"] == "system" for e in revealed)
    assert all(e["cause"].startswith("resolve-") for e in revealed)
    won = [e for e in log if e["type"] == "sorcerous-futures.AuctionWon"]
    assert len(won) == 20
    assert log[-1]["type"] == "game.Ended"
    assert not any(e.get("redacted") for e in log)  # everything opens at the end

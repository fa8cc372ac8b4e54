"""Black Market played end to end through the API, with a real worker resolving every
simultaneous phase (secret production, answers, bids, sales, give-backs, discards)."""

from __future__ import annotations

import random
import time

from games.base import ActionSpec
from tests.api.helpers import bearer, by_seat, new_game, new_players, wait_for_owed
from tests.games.playout import random_action

RULESET = "black-market"
SECRET = {"produce": "ProductionSealed", "bid": "BidSealed", "sell": "SaleSealed"}


def _choose(rnd: random.Random, actions: list[dict]) -> dict:
    """Pick a legal action from the /legal answer: a listed choice or a schema value."""
    specs = [ActionSpec(a["type"], a["schema"], a["choices"]) for a in actions]
    return random_action(specs, rnd)


def _check_secret_is_hidden(client, gid: str, players: list[dict], seat: int, seq: int):
    for other in [None, *[p for s, p in enumerate(players) if s != seat]]:
        headers = bearer(other) if other else {}
        feed = client.get(f"/v1/games/{gid}/events", headers=headers).get_json()["events"]
        shown = next(e for e in feed if e["seq"] == seq)
        assert shown["redacted"] is True and shown["data"] == {"seat": seat}


def test_a_three_player_game_is_played_to_the_end_with_a_worker(client, worker_process):
    worker_process()
    players = new_players(client, 3, prefix="monger")
    gid = new_game(client, players, ruleset=RULESET, options={"trade": "regulated"})
    seats, rnd = by_seat(client, gid, players), random.Random(5)
    players_by_seat = [seats[s] for s in range(3)]
    answers: dict[str, set[int]] = {}
    checked: set[str] = set()
    moves = 0
    game = wait_for_owed(client, gid)
    assert game["view"]["phase"] == "produce"
    while game["status"] == "active":
        owed = rnd.choice(game["owed"])
        player = seats[owed["seat"]]
        legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(player)).get_json()
        action = _choose(rnd, legal["actions"])
        res = client.post(f"/v1/games/{gid}/actions", json=action, headers=bearer(player))
        assert res.status_code in (201, 202), res.get_json()
        answers.setdefault(owed["kind"], set()).add(res.status_code)
        moves += 1
        sealed = SECRET.get(action["type"])
        mine = [e for e in res.get_json()["events"] if sealed and e["type"].endswith(sealed)]
        if mine and action["type"] not in checked:
            _check_secret_is_hidden(client, gid, players_by_seat, owed["seat"], mine[0]["seq"])
            checked.add(action["type"])
        game = wait_for_owed(client, gid)
    assert game["status"] == "finished" and moves > 30
    assert answers["produce"] == {202} and answers["propose"] <= {201, 202}
    assert {"produce", "bid"} <= checked
    result = game["result"]
    assert sorted(s["seat"] for s in result["standings"]) == [0, 1, 2]
    assert result["end_reason"] in ("supply", "vp_track", "last_card")
    log = client.get(f"/v1/games/{gid}/events", headers=bearer(players[0])).get_json()["events"]
    revealed = [e for e in log if e["type"] == "black-market.ProductionRevealed"]
    assert revealed and all(e["actor"] == "system" for e in revealed)
    assert all(e["cause"].startswith("resolve-") for e in revealed)
    scored = [e for e in log if e["type"] == "black-market.GameScored"]
    assert scored[0]["data"]["winners"] == result["winners"]
    assert log[-1]["type"] == "game.Ended"
    assert not any(e.get("redacted") for e in log)  # everything opens at the end


def test_a_wild_trade_deadline_applies_every_done_and_the_worker_closes_the_phase(
    client, worker_process
):
    players = new_players(client, 3, prefix="wild")
    gid = new_game(
        client, players, ruleset=RULESET, options={"trade": "wild"}, decision_timeout_s=1
    )
    seats = by_seat(client, gid, players)
    for seat, player in seats.items():
        res = client.post(
            f"/v1/games/{gid}/actions",
            json={"type": "produce", "goods": []},
            headers=bearer(player),
        )
        assert res.status_code == 202
    worker_process()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        headers = bearer(players[0])
        log = client.get(f"/v1/games/{gid}/events", headers=headers).get_json()["events"]
        if any(e["type"] == "black-market.TradeEnded" for e in log):
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the wild trade phase was never closed")
    kinds = [e["type"] for e in log]
    started = kinds.index("black-market.TradeStarted")
    ended = kinds.index("black-market.TradeEnded")
    timed_out = [e for e in log[started:ended] if e["type"] == "game.DecisionTimedOut"]
    assert sorted(e["data"]["seat"] for e in timed_out) == [0, 1, 2]
    assert all(e["data"]["default"] == {"type": "done"} for e in timed_out)
    assert kinds[started:ended].count("black-market.DoneDeclared") == 3

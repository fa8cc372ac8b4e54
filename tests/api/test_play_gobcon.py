"""GobCon played end to end through the API, with a real worker closing every reaction
window and join phase."""

from __future__ import annotations

import hashlib
import random

from tests.api.helpers import (
    bearer,
    by_seat,
    new_game,
    new_players,
    random_action,
    wait_for_owed,
)

RULESET = "gobcon"
SEALED = ("gobcon.ResponseSubmitted", "gobcon.JoinSubmitted")
# A known deal (the test-only seed hook on the app's Deps) in which the random moves below
# meet every step this test checks: sealed answers to a window, a join phase and a roll.
SEED = hashlib.sha256(b"gobcon-test-1").digest()


def _check_sealed_answer_is_hidden(client, gid: str, players: dict, seat: int, seq: int) -> None:
    for other in [None, *[p for s, p in players.items() if s != seat]]:
        headers = bearer(other) if other else {}
        feed = client.get(f"/v1/games/{gid}/events", headers=headers).get_json()["events"]
        shown = next(e for e in feed if e["seq"] == seq)
        assert shown["redacted"] is True and shown["data"] == {"seat": seat}


def _no_other_hand_in_view(client, gid: str, players: dict) -> None:
    for seat, player in players.items():
        view = client.get(f"/v1/games/{gid}", headers=bearer(player)).get_json()["view"]
        assert (
            view["you"] == seat
            and len(view["hand"]) == view["players"][view["order"].index(seat)]["hand_size"]
        )
    assert client.get(f"/v1/games/{gid}").get_json()["view"]["hand"] is None


def test_a_three_player_game_with_windows_and_joins_closed_by_a_worker(app, client, worker_process):
    app.extensions["marketfold"].new_seed = lambda: SEED
    worker_process()
    people = new_players(client, 3, prefix="goblin")
    gid = new_game(client, people, ruleset=RULESET, options={"goal": 20, "time_limit": 4})
    seats, rnd = by_seat(client, gid, people), random.Random(7)
    codes: dict[str, set[int]] = {}
    sealed_checked, moves = False, 0
    game = client.get(f"/v1/games/{gid}").get_json()
    _no_other_hand_in_view(client, gid, seats)
    while game["status"] == "active":
        owed = rnd.choice(game["owed"])
        player = seats[owed["seat"]]
        legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(player)).get_json()
        res = client.post(
            f"/v1/games/{gid}/actions",
            json=random_action(rnd, legal["actions"]),
            headers=bearer(player),
        )
        assert res.status_code in (201, 202), res.get_json()
        codes.setdefault(owed["kind"], set()).add(res.status_code)
        moves += 1
        sealed = [e for e in res.get_json()["events"] if e["type"] in SEALED]
        if sealed and not sealed_checked:
            _check_sealed_answer_is_hidden(client, gid, seats, owed["seat"], sealed[0]["seq"])
            sealed_checked = True
        game = wait_for_owed(client, gid)
    assert game["status"] == "finished" and sealed_checked and moves > 30
    assert 202 in codes["respond"], "a sealed answer to a still-open window is 202"
    assert codes["turn"] <= {201, 202} and 201 in codes["roll"] and 202 in codes["join"]
    result = game["result"]
    assert sorted(s["seat"] for s in result["standings"]) == [0, 1, 2]
    assert result["end_reason"] in ("goal", "time_limit") and result["reason"] == "completed"
    assert set(result["winners"]) == {s["seat"] for s in result["standings"] if s["place"] == 1}
    log = client.get(f"/v1/games/{gid}/events").get_json()["events"]
    revealed = [e for e in log if e["type"] in ("gobcon.ResponsesRevealed", "gobcon.JoinsRevealed")]
    assert revealed and all(e["actor"] == "system" for e in revealed)
    assert all(e["cause"].startswith("resolve-") for e in revealed)
    assert any(e["type"] == "gobcon.DieRolled" for e in log)
    assert log[-2]["type"] == "gobcon.GameFinished" and log[-1]["type"] == "game.Ended"
    assert not any(e.get("redacted") for e in log)  # everything opens at the end

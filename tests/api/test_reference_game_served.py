"""games/README.md promises that a game registered in `games.REGISTRY` is served, stored,
audited and replayed without a change anywhere else. The reference game
(tests/games/reference_game.py), registered here only, is played over the API to its end,
its sealed picks hidden from the other seats until the reveal, and its export verifies."""

from __future__ import annotations

import random

import games
from tests.api.helpers import bearer, by_seat, new_game, new_players, play_to_end
from tests.games import reference_game


def test_a_game_registered_only_in_tests_is_served_played_and_verified(client, app, monkeypatch):
    monkeypatch.setitem(games.REGISTRY, reference_game.GAME_ID, reference_game.GAME)
    listed = client.get("/v1/rulesets", headers={"Accept-Language": "es"}).get_json()["rulesets"]
    assert next(r for r in listed if r["id"] == "lucky-pick")["name"] == "Número afortunado"
    players = new_players(client, 3, prefix="lucky")
    gid = new_game(client, players, ruleset="lucky-pick", options={"rounds": 2})
    seats = by_seat(client, gid, players)
    picker, other = seats[0], seats[1]
    done = client.post(
        f"/v1/games/{gid}/actions", json={"type": "pick", "number": 3}, headers=bearer(picker)
    )
    assert done.status_code in (201, 202), done.get_json()
    assert (
        client.get(f"/v1/games/{gid}", headers=bearer(picker)).get_json()["view"]["your_pick"] == 3
    )
    feed = client.get(f"/v1/games/{gid}/events", headers=bearer(other)).get_json()["events"]
    picked = [e for e in feed if e["type"] == "lucky-pick.NumberPicked"]
    assert picked and picked[0]["redacted"] and picked[0]["data"] == {"seat": 0}
    seen = client.get(f"/v1/games/{gid}", headers=bearer(other)).get_json()["view"]
    assert seen["your_pick"] is None and seen["picked"] == [0]

    game = play_to_end(client, app, gid, seats, random.Random(4))
    assert game["status"] == "finished" and game["result"]["winners"], game
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    reveals = [e for e in bundle["events"] if e["type"] == "lucky-pick.PicksRevealed"]
    assert len(reveals) == 2
    verdict = client.post("/v1/verify", json=bundle).get_json()
    assert verdict["ok"] is True, verdict

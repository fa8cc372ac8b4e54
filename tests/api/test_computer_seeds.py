"""Computer seats add randomness like any seat (docs/fairness.md, "Seats' randomness";
service/computer_seeds.py): each commits to a secret of its own when it is seated and
reveals it once the table is full, so the game's draws combine it with the people's, and
the audit re-derives them."""

from __future__ import annotations

import hashlib
import secrets
import time

from tests.api.helpers import bearer, new_players
from tests.api.test_seat_seeds import verify_everywhere

FAST = {"MARKETFOLD_COMPUTER_BUDGET_S": "0.05"}


def commit() -> tuple[str, str]:
    secret = secrets.token_bytes(32)
    return secret.hex(), hashlib.sha256(secret).hexdigest()


def log(client, gid: str) -> list[dict]:
    return client.get(f"/v1/games/{gid}/events").get_json()["events"]


def reveals_match(events: list[dict]) -> dict[int, str]:
    """Each logged reveal, by seat, checked against the seat's logged commitment."""
    joined = {e["data"]["seat"]: e["data"] for e in events if e["type"] == "game.PlayerJoined"}
    out = {}
    for e in events:
        if e["type"] == "game.SeedRevealed":
            seat, secret = e["data"]["seat"], e["data"]["secret"]
            assert hashlib.sha256(bytes.fromhex(secret)).hexdigest() == joined[seat]["commitment"]
            out[seat] = secret
    return out


def test_computer_seats_commit_and_reveal_and_their_secrets_join_the_draws(client, tmp_path):
    (me,) = new_players(client, 1, prefix="solo")
    mine, commitment = commit()
    res = client.post(
        "/v1/games",
        json={
            "ruleset": "gobcon",
            "players": 3,
            "join": True,
            "seat_commitment": commitment,
            "computer": {"level": "quick"},
        },
        headers=bearer(me),
    )
    assert res.status_code == 201, res.get_json()
    game = res.get_json()
    gid = game["id"]
    # the table is full: the computer seats revealed at once, the game waits for mine
    assert game["status"] == "waiting"
    seeds = game["seat_seeds"]
    assert seeds["committed"] == [0, 1, 2] and seeds["revealed"] == [1, 2], seeds
    events = log(client, gid)
    joined = [e["data"] for e in events if e["type"] == "game.PlayerJoined"]
    assert all(len(j["commitment"]) == 64 for j in joined)
    assert [bool(j.get("computer")) for j in joined] == [False, True, True]
    secrets_ = reveals_match(events)
    assert set(secrets_) == {1, 2} and secrets_[1] != secrets_[2]

    done = client.post(f"/v1/games/{gid}/reveal", json={"seat_secret": mine}, headers=bearer(me))
    assert done.status_code == 200 and done.get_json()["status"] == "active"
    combined = next(e for e in log(client, gid) if e["type"] == "game.SeedsCombined")
    assert combined["data"] == {"rule": 2, "revealed": [0, 1, 2], "withheld": [], "none": []}

    client.post(f"/v1/games/{gid}/abort", headers=bearer(me))
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    verify_everywhere(client, bundle, tmp_path)  # the API, `marketfold verify`, rederive.js
    verdict = client.post("/v1/verify", json=bundle).get_json()
    detail = next(c["detail"] for c in verdict["checks"] if c["name"] == "seed and random draws")
    assert "combined with the secrets of seats [0, 1, 2]" in detail


def test_a_worker_reveals_a_computer_seat_when_a_person_fills_the_table(
    client, app, worker_process, monkeypatch
):
    config = app.extensions["marketfold"].config
    monkeypatch.setitem(config, "SEED_REVEAL_S", 60)  # logged in game.Created: this game's
    worker_process(**FAST)
    host, guest = new_players(client, 2, prefix="host")
    gid = client.post(
        "/v1/games", json={"ruleset": "gobcon", "players": 2}, headers=bearer(host)
    ).get_json()["id"]
    seated = client.post(
        f"/v1/games/{gid}/computer-seats", json={"level": "quick", "seats": 1}, headers=bearer(host)
    )
    assert seated.status_code == 200, seated.get_json()
    assert seated.get_json()["seat_seeds"]["committed"] == [0]  # committed when seated
    mine, commitment = commit()
    joined = client.post(
        f"/v1/games/{gid}/join", json={"seat_commitment": commitment}, headers=bearer(guest)
    )
    assert joined.get_json()["status"] == "waiting"  # the reveals are open
    deadline = time.monotonic() + 30
    while client.get(f"/v1/games/{gid}").get_json()["seat_seeds"]["revealed"] != [0]:
        assert time.monotonic() < deadline, "no worker revealed the computer seat's secret"
        time.sleep(0.1)
    reveal = next(e for e in log(client, gid) if e["type"] == "game.SeedRevealed")
    assert reveal["data"]["seat"] == 0
    done = client.post(f"/v1/games/{gid}/reveal", json={"seat_secret": mine}, headers=bearer(guest))
    assert done.status_code == 200, done.get_json()
    assert done.get_json()["status"] == "active"
    assert set(reveals_match(log(client, gid))) == {0, 1}

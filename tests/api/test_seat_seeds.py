"""Randomness the operator cannot choose (docs/fairness.md, "Seats' randomness"): each seat
commits to a secret when it joins, reveals it once every seat is taken, and the game's
draws are keyed with the server's seed combined with the reveals; a seat that never
reveals cannot hold the start up, and the audit, `marketfold verify` and
tools/rederive.js re-derive every draw from the seed and the reveals."""

from __future__ import annotations

import hashlib
import json
import random
import secrets
import shutil
import subprocess
import time

import pytest

from cli import main as cli_main
from events import codec, keys
from games.decktet import basic_deck
from games.rng import Rng, combine
from tests.api.helpers import bearer, by_seat, new_players, play_to_end
from tests.conftest import ROOT

NODE = shutil.which("node")


def commit() -> tuple[str, str]:
    """A seat's secret (hex) and its commitment, as a client makes them."""
    secret = secrets.token_bytes(32)
    return secret.hex(), hashlib.sha256(secret).hexdigest()


def created(client, owner, players: int, ruleset: str = "goblin-market") -> str:
    res = client.post(
        "/v1/games", json={"ruleset": ruleset, "players": players}, headers=bearer(owner)
    )
    assert res.status_code == 201, res.get_json()
    return res.get_json()["id"]


def join(client, gid: str, player, commitment: str | None) -> dict:
    body = {"seat_commitment": commitment} if commitment else {}
    res = client.post(f"/v1/games/{gid}/join", json=body, headers=bearer(player))
    assert res.status_code == 200, res.get_json()
    return res.get_json()


def reveal(client, gid: str, player, secret: str):
    return client.post(
        f"/v1/games/{gid}/reveal", json={"seat_secret": secret}, headers=bearer(player)
    )


def events(client, gid: str, player=None) -> list[dict]:
    headers = bearer(player) if player else {}
    return client.get(f"/v1/games/{gid}/events", headers=headers).get_json()["events"]


def deck_from(key: bytes) -> tuple[list[int], list[str]]:
    """The seating and auction deck a 3-player Goblin Market game draws from `key`."""
    rng = Rng(key)
    return rng.shuffle(range(3)), rng.shuffle(basic_deck())


def verify_everywhere(client, bundle: dict, tmp_path) -> None:
    """POST /v1/verify, `marketfold verify` and tools/rederive.js all accept the bundle."""
    res = client.post("/v1/verify", json=bundle)
    assert res.status_code == 200, res.get_json()
    report = res.get_json()
    assert report["ok"], report
    path, keys = tmp_path / "game.json", tmp_path / "keys.json"
    path.write_text(json.dumps(bundle))
    keys.write_bytes(client.get("/v1/keys").data)
    assert cli_main.main(["verify", "--keys", str(keys), str(path)]) == 0
    if NODE:
        done = subprocess.run(
            [NODE, str(ROOT / "tools" / "rederive.js"), "--keys", str(keys), str(path)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "all as logged" in done.stdout


def test_every_seat_reveals_and_the_draws_use_the_seed_and_every_reveal(client, app, tmp_path):
    people = new_players(client, 3)
    gid = created(client, people[0], 3)
    made = [commit() for _ in people]
    join(client, gid, people[0], made[0][1])
    join(client, gid, people[1], made[1][1])
    # hidden information: no reveal before every seat has committed
    early = reveal(client, gid, people[0], made[0][0])
    assert early.status_code == 409 and early.get_json()["code"] == "reveal_not_open"
    assert not any(e["type"] == "game.SeedRevealed" for e in events(client, gid))

    join(client, gid, people[2], made[2][1])
    game = client.get(f"/v1/games/{gid}").get_json()
    assert game["status"] == "waiting"  # the reveals are open: no draw has happened yet
    seeds = game["seat_seeds"]
    assert seeds["rule"] == 2 and seeds["committed"] == [0, 1, 2] and seeds["revealed"] == []
    assert seeds["reveals_close_at"] and not seeds["combined"]
    opened = [e for e in events(client, gid) if e["type"] == "game.RevealsOpened"]
    assert opened and opened[0]["data"]["seats"] == [0, 1, 2]
    # a late joiner meets a full table that is starting
    late = new_players(client, 1, "late")[0]
    refused = client.post(f"/v1/games/{gid}/join", headers=bearer(late))
    assert refused.status_code == 409 and refused.get_json()["code"] == "game_starting"

    seat_of = {p["id"]: s["seat"] for p in people for s in game["seats"] if s["player"] == p["id"]}
    for i in (0, 1):
        answer = reveal(client, gid, people[i], made[i][0])
        assert answer.status_code == 200, answer.get_json()
        assert answer.get_json()["status"] == "waiting"
    again = reveal(client, gid, people[0], made[0][0])  # a retry answers the first reveal
    assert again.status_code == 200
    last = reveal(client, gid, people[2], made[2][0])
    assert last.status_code == 200 and last.get_json()["status"] == "active"

    log = events(client, gid)
    combined = next(e for e in log if e["type"] == "game.SeedsCombined")
    assert combined["data"] == {"rule": 2, "revealed": [0, 1, 2], "withheld": [], "none": []}
    revealed = {
        e["data"]["seat"]: e["data"]["secret"] for e in log if e["type"] == "game.SeedRevealed"
    }
    assert revealed == {seat_of[p["id"]]: made[i][0] for i, p in enumerate(people)}

    seats = by_seat(client, gid, people)
    play_to_end(client, app, gid, seats, random.Random(5))
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    seed = bytes.fromhex(bundle["seed"])
    key = combine(seed, gid, [revealed[i] for i in range(3)])
    started = next(e for e in bundle["events"] if e["type"] == "game.Started")
    deck = next(e for e in bundle["events"] if e["type"] == "goblin-market.DecksShuffled")
    # the seating and the deck are drawn with the combined key, not with the seed alone
    assert deck_from(key) == (started["data"]["order"], deck["data"]["auction_deck"])
    assert deck_from(seed) != deck_from(key)
    verify_everywhere(client, bundle, tmp_path)
    report = client.post("/v1/verify", json=bundle).get_json()
    detail = next(c["detail"] for c in report["checks"] if c["name"] == "seed and random draws")
    assert "combined with the secrets of seats [0, 1, 2]" in detail

    # a reveal rewritten after the fact no longer matches the seat's commitment
    forged = json.loads(json.dumps(bundle))
    for env in forged["events"]:
        if env["type"] == "game.SeedRevealed" and env["data"]["seat"] == 1:
            env["data"]["secret"] = "00" * 32
    report = client.post("/v1/verify", json=forged).get_json()
    assert not report["ok"]
    if NODE:
        path = tmp_path / "forged.json"
        path.write_text(json.dumps(forged))
        done = subprocess.run(
            [NODE, str(ROOT / "tools" / "rederive.js"), str(path)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 1
        assert "seat 1's secret does not hash to its commitment" in done.stdout


def test_a_wrong_or_malformed_reveal_is_a_422_naming_the_field(client):
    people = new_players(client, 2)
    gid = created(client, people[0], 2, "gobcon")
    made = [commit() for _ in people]
    bad = client.post(
        f"/v1/games/{gid}/join", json={"seat_commitment": "XYZ"}, headers=bearer(people[0])
    )
    assert bad.status_code == 422 and "seat_commitment" in bad.get_json()["errors"]
    assert client.get(f"/v1/games/{gid}").get_json()["seats"] == []  # nothing written
    for p, (_, c) in zip(people, made, strict=True):
        join(client, gid, p, c)
    wrong = reveal(client, gid, people[0], made[1][0])  # another seat's secret
    assert wrong.status_code == 422
    assert wrong.headers["Content-Type"].startswith("application/problem+json")
    problem = wrong.get_json()
    assert problem["code"] == "reveal_mismatch" and "seat_secret" in problem["errors"]
    malformed = reveal(client, gid, people[0], "not hex")
    assert malformed.status_code == 422 and "seat_secret" in malformed.get_json()["errors"]
    assert not any(e["type"] == "game.SeedRevealed" for e in events(client, gid))
    stranger = new_players(client, 1, "s")[0]
    assert reveal(client, gid, stranger, made[0][0]).status_code == 403


def test_a_seat_that_never_reveals_cannot_hold_the_start_up(client, app, worker_process, tmp_path):
    deps = app.extensions["marketfold"]
    deps.config["SEED_REVEAL_S"] = 2  # logged in game.Created: the window of this game
    people = new_players(client, 3)
    gid = created(client, people[0], 3)
    made = [commit() for _ in people]
    join(client, gid, people[0], made[0][1])
    join(client, gid, people[1], made[1][1])  # commits, then never reveals
    join(client, gid, people[2], None)  # an older client: no commitment at all
    assert reveal(client, gid, people[0], made[0][0]).status_code == 200
    refused = reveal(client, gid, people[2], made[2][0])
    assert refused.status_code == 409 and refused.get_json()["code"] == "not_committed"
    leave = client.post(f"/v1/games/{gid}/leave", headers=bearer(people[1]))
    assert leave.status_code == 409 and leave.get_json()["code"] == "game_starting"
    closes = client.get(f"/v1/games/{gid}").get_json()["seat_seeds"]["reveals_close_at"]
    assert closes
    # the window's close is work of its own kind in the deadline index, due at its end
    index = deps.redis.zrange(keys.deadlines(), 0, -1, withscores=True)
    due = {m.decode(): when for m, when in index if gid in m.decode()}
    assert f"reveals|{gid}|seat-seeds" in due and f"expire|{gid}|seat-seeds" not in due, due
    assert due[f"reveals|{gid}|seat-seeds"] == codec.parse_time(closes).timestamp()

    worker_process()  # a real worker closes the window
    deadline = time.monotonic() + 30
    while client.get(f"/v1/games/{gid}").get_json()["status"] != "active":
        assert time.monotonic() < deadline, "the game did not start after its reveal window"
        time.sleep(0.2)
    log = events(client, gid)
    combined = next(e for e in log if e["type"] == "game.SeedsCombined")
    assert combined["data"] == {"rule": 2, "revealed": [0], "withheld": [1], "none": [2]}
    assert combined["command"] == {"type": "close_reveals"}
    assert combined["at"] >= closes
    assert deps.redis.zscore(keys.deadlines(), f"reveals|{gid}|seat-seeds") is None
    game = client.get(f"/v1/games/{gid}").get_json()
    assert game["seat_seeds"]["combined"] and game["seat_seeds"]["reveals_close_at"] is None
    late = reveal(client, gid, people[1], made[1][0])
    assert late.status_code == 409 and late.get_json()["code"] == "reveal_not_open"

    seats = by_seat(client, gid, people)
    play_to_end(client, app, gid, seats, random.Random(3))
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    seed = bytes.fromhex(bundle["seed"])
    started = next(e for e in bundle["events"] if e["type"] == "game.Started")
    key = combine(seed, gid, [made[0][0], None, None])
    assert started["data"]["order"] == Rng(key).shuffle(range(3))
    verify_everywhere(client, bundle, tmp_path)


def test_a_game_nobody_commits_in_draws_from_the_seed_alone_and_starts_at_once(client):
    people = new_players(client, 2)
    gid = created(client, people[0], 2, "gobcon")
    for p in people:
        join(client, gid, p, None)
    game = client.get(f"/v1/games/{gid}").get_json()
    assert game["status"] == "active"
    assert game["seat_seeds"] == {
        "rule": 2,
        "committed": [],
        "commitments": {},
        "revealed": [],
        "reveals_close_at": None,
        "combined": False,
    }
    assert not any(e["type"].startswith("game.Seed") for e in events(client, gid))


@pytest.mark.timeout(240)
def test_bots_commit_and_reveal_without_being_asked(client, live_server, worker_process):
    from cli.bot import Bot

    server = live_server
    worker_process()
    people = new_players(client, 2)
    gid = created(client, people[0], 2, "gobcon")
    bots = [Bot(server, gid, p["token"], seed=i, wait_s=1.0) for i, p in enumerate(people)]
    finals: list[dict] = []
    errors: list[BaseException] = []

    import threading

    def run(bot: Bot) -> None:
        try:
            finals.append(bot.play())
        except BaseException as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(b,), daemon=True) for b in bots]
    for t in threads:
        t.start()
    for t in threads:
        t.join(200)
    assert not errors, errors
    assert finals and finals[0]["status"] == "finished"
    log = client.get(f"/v1/games/{gid}/events").get_json()["events"]
    joined = [e["data"] for e in log if e["type"] == "game.PlayerJoined"]
    assert all(len(j.get("commitment", "")) == 64 for j in joined)
    combined = next(e for e in log if e["type"] == "game.SeedsCombined")
    assert combined["data"]["revealed"] == [0, 1] and combined["data"]["withheld"] == []
    last = next(e for e in log if e["seq"] == combined["seq"] - 1)  # the last bot's reveal
    assert last["type"] == "game.SeedRevealed" and last["command"]["type"] == "reveal"


def test_a_rematch_seats_its_creator_with_the_commitment_it_sends(client):
    people = new_players(client, 2)
    gid = created(client, people[0], 2, "gobcon")
    for p in people:
        join(client, gid, p, None)
    ended = client.post(f"/v1/games/{gid}/abort", headers=bearer(people[0]))
    assert ended.status_code == 200 and ended.get_json()["status"] == "finished"
    secret, commitment = commit()
    res = client.post(
        f"/v1/games/{gid}/rematch", json={"seat_commitment": commitment}, headers=bearer(people[1])
    )
    assert res.status_code == 201, res.get_json()
    rematch = res.get_json()
    assert rematch["seat_seeds"]["committed"] == [rematch["you"]]
    other = commit()  # the other former player accepts, committing too: the reveals open
    join(client, rematch["id"], people[0], other[1])
    assert reveal(client, rematch["id"], people[1], secret).status_code == 200
    assert reveal(client, rematch["id"], people[0], other[0]).get_json()["status"] == "active"

"""A bundle proves it is the service's game only with the service's signature, checked
against published keys (the forgeries themselves are in test_tamper.py): an unsigned
bundle is never reported verified, the command line trusts the keys an auditor names, and
a rotated key keeps old bundles verifiable."""

import copy
import json
import random
import subprocess
import sys

import pytest

from events import codec
from games.rng import commitment
from service.keyring import Keyring
from tests.api.helpers import by_seat, new_game, new_players, play_to_end
from tests.conftest import ROOT

SIGNED, LOGGED = "signed by the service", "in the public log of games"
PROOF = {SIGNED, LOGGED}


def finished(client, app, seed: int, ruleset: str = "goblin-market") -> dict:
    people = new_players(client, 3)
    gid = new_game(client, people, ruleset=ruleset)
    play_to_end(client, app, gid, by_seat(client, gid, people), random.Random(seed))
    return client.get(f"/v1/games/{gid}/export").get_json()


def relabel(other: dict, as_game: str) -> dict:
    """Another finished game presented as `as_game`, as a forger would: the id in the
    header and in game.Created, the commitment recomputed from the revealed seed, the
    hash chain rebuilt."""
    forged = copy.deepcopy(other)
    forged["game"]["id"] = as_game
    created = forged["events"][0]["data"]
    created["game_id"] = as_game
    created["seed_commitment"] = commitment(as_game, bytes.fromhex(forged["seed"]))
    codec.seal(forged["events"], codec.GENESIS)
    return forged


def verdict(client, bundle: dict) -> tuple[bool, dict]:
    report = client.post("/v1/verify", json=bundle).get_json()
    return report["ok"], {c["name"]: c for c in report["checks"]}


@pytest.fixture
def two(client, app):
    return finished(client, app, 1), finished(client, app, 2)


def test_an_export_is_signed_by_a_published_key_and_verifies(client, two):
    bundle = two[0]
    keys = client.get("/v1/keys").get_json()["keys"]
    active = [k["kid"] for k in keys if k["status"] == "active"]
    assert bundle["signature"]["kid"] == active[0]
    report = client.post("/v1/verify", json=bundle).get_json()
    assert report["ok"] and report["signed_by"] == active[0]
    assert json.loads(bundle["signature"]["statement"])["head"] == bundle["events"][-1]["hash"]


def test_an_unsigned_bundle_is_reported_unsigned_never_verified(client, two, tmp_path):
    bare = {k: v for k, v in two[0].items() if k != "signature"}
    ok, checks = verdict(client, bare)
    assert not ok and checks[SIGNED]["detail"].startswith("unsigned")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(two[0]))
    done = subprocess.run(  # no key named: nothing shows whose game it is
        [sys.executable, "-m", "cli", "verify", str(path)], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 1 and "no trusted key given" in done.stdout
    assert "NOT verified" in done.stdout


def test_the_cli_trusts_a_saved_key_set_and_names_the_key(client, two, tmp_path):
    path, keys = tmp_path / "game.json", tmp_path / "keys.json"
    path.write_text(json.dumps(two[0]))
    keys.write_bytes(client.get("/v1/keys").data)
    cli = [sys.executable, "-m", "cli", "verify", "--keys", str(keys)]
    done = subprocess.run([*cli, str(path)], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout
    assert f"signed by key {two[0]['signature']['kid']}" in done.stdout
    path.write_text(
        json.dumps(relabel(two[1], two[0]["game"]["id"]) | {"signature": two[0]["signature"]})
    )
    done = subprocess.run([*cli, "--json", str(path)], capture_output=True, text=True, cwd=ROOT)
    report = json.loads(done.stdout)
    assert done.returncode == 1 and report["signed_by"] is None


def test_a_rotated_key_keeps_old_bundles_verifiable(client, app, two):
    old = two[0]
    ring = Keyring(app.config["SIGNING_KEY_DIR"])
    new_kid = ring.rotate()
    try:
        keys = {k["kid"]: k["status"] for k in client.get("/v1/keys").get_json()["keys"]}
        assert keys[new_kid] == "active" and keys[old["signature"]["kid"]] == "retired"
        assert (
            client.post("/v1/verify", json=old).get_json()["signed_by"] == old["signature"]["kid"]
        )
        again = client.get(f"/v1/games/{old['game']['id']}/export").get_json()
        assert again["signature"]["kid"] == new_kid
        assert client.post("/v1/verify", json=again).get_json()["ok"]
    finally:  # the session's other tests sign with one key again, no rotation logged
        (ring.path / "active").write_text(old["signature"]["kid"])
        (ring.path / f"{new_kid}.pem").unlink()

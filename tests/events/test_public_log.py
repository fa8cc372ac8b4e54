"""The public log of games: every game's created, started and ended leaves, in a tree whose
signed heads only ever grow. A game rewritten after a player saved its receipt, even one
the service signed again, is caught by marketfold verify --seen and by POST /v1/verify."""

import copy
import json
import random
import shutil
import subprocess
import sys

import pytest

from events import codec, log_checks, merkle, signature, tlog_keys, transparency
from games.rng import commitment
from service import transparency as public_log
from service.keyring import Keyring
from tests.api.helpers import by_seat, new_game, new_players, play_to_end
from tests.conftest import ROOT

LOGGED, SEEN = log_checks.CHECK, log_checks.SEEN
NODE = shutil.which("node")


def finished(client, app, seed: int) -> str:
    people = new_players(client, 3)
    gid = new_game(client, people)
    play_to_end(client, app, gid, by_seat(client, gid, people), random.Random(seed))
    return gid


def verify_cli(tmp_path, bundle, *extra) -> tuple[int, dict]:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(bundle))
    done = subprocess.run(
        [sys.executable, "-m", "cli", "verify", "--json", *extra, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return done.returncode, json.loads(done.stdout)


def named(report: dict) -> dict:
    return {c["name"]: c for c in report["checks"]}


def test_a_finished_game_has_its_three_leaves_included_in_a_signed_head(client, app):
    gid = finished(client, app, 3)
    receipt = client.get(f"/v1/games/{gid}/transparency").get_json()
    head = receipt["tree_head"]
    assert [json.loads(x["leaf"])["kind"] for x in receipt["leaves"]] == list(transparency.KINDS)
    trusted = signature.keyset(client.get("/v1/keys").get_json())
    assert log_checks.check_head(head, trusted) is None
    for item in receipt["leaves"]:
        path = [bytes.fromhex(h) for h in item["path"]]
        root = bytes.fromhex(head["root"])
        merkle.verify_inclusion(item["leaf"].encode(), item["index"], head["size"], path, root)
    ended = json.loads(receipt["leaves"][-1]["leaf"])
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    assert ended["head"] == bundle["events"][-1]["hash"] and ended["events"] == len(
        bundle["events"]
    )
    assert "seed" not in json.dumps(ended) and "seed_commitment" in receipt["leaves"][0]["leaf"]
    # the log names games by a hash of their id: reading it finds no game (an unlisted one
    # stays unlisted), holding the id finds its leaves
    assert gid not in json.dumps(client.get("/v1/transparency/leaves").get_json())
    assert ended["game"] == transparency.game_ref(gid)
    assert named(client.post("/v1/verify", json=bundle).get_json())[LOGGED]["ok"]


def test_later_heads_extend_earlier_ones(client, app):
    finished(client, app, 4)
    first = client.get("/v1/transparency/head").get_json()
    assert client.get("/v1/transparency/head").get_json() == first  # one head per size
    finished(client, app, 5)
    second = client.get("/v1/transparency/head").get_json()
    assert second["size"] > first["size"]
    got = client.get(f"/v1/transparency/consistency?first={first['size']}&second={second['size']}")
    proof = [bytes.fromhex(h) for h in got.get_json()["path"]]
    merkle.verify_consistency(
        first["size"],
        second["size"],
        proof,
        bytes.fromhex(first["root"]),
        bytes.fromhex(second["root"]),
    )
    leaves = client.get("/v1/transparency/leaves?start=0").get_json()
    assert leaves["size"] == second["size"] == len(leaves["leaves"])
    bad = client.get(f"/v1/transparency/consistency?first=1&second={second['size'] + 1}")
    assert bad.status_code == 422 and "second" in bad.get_json()["errors"]


def rewrite(app, real: dict, other: dict) -> dict:
    """The operator's forgery: another finished game presented as `real`'s, signed with the
    service's own key, with fresh leaves appended to the public log for it (the log keeps
    the first leaf of an id, so the operator writes the lists directly)."""
    gid = real["game"]["id"]
    forged = copy.deepcopy(other)
    forged["game"]["id"] = gid
    forged["events"][0]["data"]["game_id"] = gid
    forged["events"][0]["data"]["seed_commitment"] = commitment(gid, bytes.fromhex(forged["seed"]))
    codec.seal(forged["events"], codec.GENESIS)
    key = Keyring(app.config["SIGNING_KEY_DIR"]).active()
    forged["signature"] = signature.sign(forged, key)
    boot = app.extensions["marketfold"]
    items = []
    for leaf in transparency.from_log(forged["events"]).values():
        text = transparency.text(leaf)
        boot.redis.rpush(tlog_keys.tlog_hashes(), merkle.leaf_hash(text.encode()))
        boot.redis.rpush(tlog_keys.tlog_texts(), text)
        items.append(text)
    head = public_log.head(boot)
    size = head["size"]
    leaves = []
    for i, text in enumerate(items):
        index = size - len(items) + i
        path = [p.hex() for p in boot.tlog.tree.inclusion(index, size)]
        leaves.append({"index": index, "leaf": text, "path": path})
    forged["transparency"] = {"tree_head": head, "leaves": leaves}
    return forged


@pytest.fixture
def saved(client, app, tmp_path):
    """A finished game, its receipt as its player saved it, and the published keys."""
    gid = finished(client, app, 6)
    receipt = tmp_path / "receipt.json"
    receipt.write_bytes(client.get(f"/v1/games/{gid}/transparency").data)
    keyfile = tmp_path / "keys.json"
    keyfile.write_bytes(client.get("/v1/keys").data)
    real = client.get(f"/v1/games/{gid}/export").get_json()
    return real, receipt, keyfile


def test_a_game_rewritten_and_resigned_by_the_operator_is_caught_by_a_saved_receipt(
    client, app, tmp_path, saved, live_server
):
    real, receipt, keyfile = saved
    other = client.get(f"/v1/games/{finished(client, app, 7)}/export").get_json()
    forged = rewrite(app, real, other)
    # the forgery is the operator's own: signed, logged, every play check passes
    code, report = verify_cli(tmp_path, forged, "--keys", str(keyfile))
    assert code == 0, report
    # but not against the receipt the player saved when the game ended
    code, report = verify_cli(
        tmp_path, forged, "--keys", str(keyfile), "--seen", str(receipt), "--server", live_server
    )
    assert code == 1
    assert "the game was rewritten" in named(report)[SEEN]["detail"], named(report)[SEEN]
    # the real game agrees with the same receipt
    code, report = verify_cli(
        tmp_path, real, "--keys", str(keyfile), "--seen", str(receipt), "--server", live_server
    )
    assert code == 0 and named(report)[SEEN]["ok"], report
    # and so does the re-deriver in Node, with the consistency proof saved beside
    if NODE:
        saved_size = json.loads(receipt.read_text())["tree_head"]["size"]
        size = forged["transparency"]["tree_head"]["size"]
        proof = tmp_path / "consistency.json"
        proof.write_bytes(
            client.get(f"/v1/transparency/consistency?first={saved_size}&second={size}").data
        )
        (tmp_path / "forged.json").write_text(json.dumps(forged))
        node = [NODE, str(ROOT / "tools" / "rederive.js"), "--keys", str(keyfile)]
        seen = ["--seen", str(receipt), "--consistency", str(proof)]
        done = subprocess.run(
            [*node, *seen, str(tmp_path / "forged.json")], capture_output=True, text=True
        )
        assert done.returncode == 1 and "the game was rewritten" in done.stdout, done.stdout
        done = subprocess.run(
            [*node, str(tmp_path / "forged.json")], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stdout  # without the receipt it cannot tell
    # and the server that holds the game names the leaves it logged first
    answer = named(client.post("/v1/verify", json=forged).get_json())[LOGGED]
    assert not answer["ok"] and "this server's log records game" in answer["detail"]


def test_a_log_rewritten_in_place_breaks_consistency_with_a_head_seen_before(
    client, app, tmp_path, live_server
):
    boot = app.extensions["marketfold"]
    earlier = finished(client, app, 10)
    gid = finished(client, app, 11)
    receipt, keyfile = tmp_path / "receipt.json", tmp_path / "keys.json"
    receipt.write_bytes(client.get(f"/v1/games/{gid}/transparency").data)
    keyfile.write_bytes(client.get("/v1/keys").data)
    finished(client, app, 12)  # the log grows past the saved head
    # the operator rewrites an earlier game's leaf where it lies, hash and text
    (index,) = boot.tlog.indexes([f"{earlier}:ended"])
    text = boot.tlog.texts(index, index + 1)[0].replace('"events":', '"events":1')
    boot.redis.lset(tlog_keys.tlog_hashes(), index, merkle.leaf_hash(text.encode()))
    boot.redis.lset(tlog_keys.tlog_texts(), index, text)
    boot.tlog.tree.full.clear()
    boot.redis.delete(tlog_keys.tlog_head())
    later = client.get(f"/v1/games/{gid}/export").get_json()
    extra = ("--keys", str(keyfile), "--seen", str(receipt), "--server", live_server)
    code, report = verify_cli(tmp_path, later, *extra)
    checks = named(report)
    assert checks[LOGGED]["ok"]  # this game's own leaves are in the rewritten tree
    assert code == 1 and "does not extend" in checks[SEEN]["detail"], checks[SEEN]


def test_leaves_a_writer_died_before_logging_are_logged_by_the_sweep(client, app):
    gid = finished(client, app, 9)
    boot = app.extensions["marketfold"]
    ids = [f"{gid}:{k}" for k in transparency.KINDS]
    before = client.get(f"/v1/games/{gid}/transparency").get_json()
    for key in (
        tlog_keys.tlog_hashes(),
        tlog_keys.tlog_texts(),
        tlog_keys.tlog_ids(),
        tlog_keys.tlog_head(),
    ):
        boot.redis.delete(key)  # as if every writer died right after its append
    boot.tlog.tree.full.clear()
    assert boot.tlog.indexes(ids) == [None, None, None]
    assert public_log.sweep(boot) == 3
    assert public_log.sweep(boot) == 0  # once only
    after = client.get(f"/v1/games/{gid}/transparency").get_json()
    assert [x["leaf"] for x in after["leaves"]] == [x["leaf"] for x in before["leaves"]]

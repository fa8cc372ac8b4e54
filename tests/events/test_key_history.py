"""Keys with a history (#45 §4), as the operator: the operator rotates the signing key
(`marketfold keys rotate`), then takes the retired key from its data directory and signs
with it a statement dated after its retirement, and one dated back into its window. An
auditor holding only the published keys (GET /v1/keys) and a checkpoint catches each by
name, in `marketfold verify`, POST /v1/verify and tools/rederive.js; a bundle signed
before the rotation keeps its verdict (docs/audit.md, "Keys with a history")."""

import copy
import json
import shutil
import subprocess
import sys
from datetime import timedelta

import pytest
import requests
from cryptography.hazmat.primitives.serialization import load_pem_private_key

from cli.compose import create_app
from events import codec, keylog, note, signature, signed_dates, transparency, witness
from tests.conftest import ROOT, TEST_CONFIG, api_server
from tests.events.test_public_log import verify_cli
from tests.events.test_tlog_operator import finished

NODE = shutil.which("node")


def rotate(key_dir) -> str:
    argv = [sys.executable, "-m", "cli", "keys", "rotate", "--dir", str(key_dir)]
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, check=True)
    return done.stdout.strip()


def retired_key(key_dir, kid: str):
    """What the operator can do: read a retired key from the data directory."""
    return load_pem_private_key((key_dir / f"{kid}.pem").read_bytes(), password=None)


def window_check(report: dict) -> dict:
    return next(c for c in report["checks"] if c["name"] == signed_dates.CHECK)


def keyed_app(redis_url, key_dir):
    """An app of its own that keeps its signing keys in `key_dir`."""
    config = {**TEST_CONFIG, "REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url}
    return create_app({**config, "SIGNING_KEY_DIR": str(key_dir)})


@pytest.fixture
def rotated(redis_url, tmp_path):
    """A server with its own key directory: one game finished under the first key, the key
    rotated, one game finished under the second."""
    key_dir = tmp_path / "keys"
    app = keyed_app(redis_url, key_dir)
    client = app.test_client()
    before = client.get(f"/v1/games/{finished(client, app, 81)}/export").get_json()
    old = before["signature"]["kid"]
    new = rotate(key_dir)
    assert new != old
    checkpoint = client.get("/v1/transparency/checkpoint").get_data(as_text=True)
    after = client.get(f"/v1/games/{finished(client, app, 82)}/export").get_json()
    return app, client, key_dir, before, after, old, new, checkpoint


@pytest.mark.slow
def test_a_rotation_is_logged_and_the_current_heads_are_signed_by_the_new_key(rotated):
    app, client, key_dir, before, after, old, new, checkpoint = rotated
    published = {k["kid"]: k for k in client.get("/v1/keys").get_json()["keys"]}
    assert published[old]["status"] == "retired" and published[new]["status"] == "active"
    # the rotation is a leaf of the log, endorsed by the retired key
    rotation = published[old]["retired_leaf"]
    assert published[new]["first_leaf"] == rotation
    assert published[old]["not_after"] == published[new]["not_before"]
    leaf = json.loads(
        client.get(f"/v1/transparency/leaves?start={rotation}&end={rotation + 1}").get_json()[
            "leaves"
        ][0]["leaf"]
    )
    assert (leaf["kind"], leaf["key"], leaf["retires"]) == ("key", new, old)
    pinned = signature.keyset({"keys": [published[old]]})
    assert keylog.learn([json.dumps(leaf)], pinned).keys() == {new}
    # the checkpoint after the rotation holds its leaf and is signed by the new key only
    text, lines = note.split(checkpoint)
    assert note.parse_checkpoint(text).size == rotation + 1
    both = signature.keyset({"keys": list(published.values())})
    assert witness.log_signed(text, lines, both) == new
    assert witness.log_signed(text, lines, {old: both[old]}) is None
    assert (
        after["signature"]["kid"] == new
        and after["transparency"]["tree_head"]["signature"]["kid"] == new
    )
    # the bundle signed before the rotation keeps its verdict, as does the new one
    for bundle in (before, after):
        report = client.post("/v1/verify", json=bundle).get_json()
        assert report["ok"], report
        assert window_check(report)["ok"]


def forged(after: dict, key, at: str) -> dict:
    """The newer game's bundle signed again by `key`, dated `at`, its tree head too."""
    out = copy.deepcopy(after)
    out["signature"] = signature.sign(after, key, at)
    head = after["transparency"]["tree_head"]
    out["transparency"]["tree_head"] = transparency.sign_head(
        head["size"], bytes.fromhex(head["root"]), at, key
    )
    return out


@pytest.mark.slow
def test_the_retired_key_cannot_sign_the_present_or_the_past(rotated, tmp_path, redis_url):
    app, client, key_dir, before, after, old, new, checkpoint = rotated
    published = client.get("/v1/keys").get_json()
    keyfile = tmp_path / "published.json"
    keyfile.write_text(json.dumps(published))
    retired_at = next(k for k in published["keys"] if k["kid"] == old)["not_after"]
    key = retired_key(key_dir, old)
    # 1. signed now, after the retirement
    late = forged(after, key, codec.now_iso())
    # 2. dated back inside the old key's window: a second before the rotation
    back = codec.parse_time(retired_at) - timedelta(seconds=1)
    early = forged(after, key, back.isoformat().replace("+00:00", "Z"))
    code, report = verify_cli(tmp_path, late, "--keys", str(keyfile))
    found = window_check(report)
    assert code == 1 and not found["ok"]
    assert found["detail"].startswith(f"{signed_dates.RETIRED}: the bundle's signature"), found
    assert f"{signed_dates.RETIRED}: the bundle's tree head" in found["detail"]
    code, report = verify_cli(tmp_path, early, "--keys", str(keyfile))
    found = window_check(report)
    assert code == 1 and found["detail"].startswith(f"{signed_dates.BACKDATED}: the bundle"), found
    assert "logged after: a retired key signed it later" in found["detail"]
    assert "the rotation that retired key" in found["detail"]  # the head holds the rotation
    # the bundle of before keeps its verdict with the published history
    code, report = verify_cli(tmp_path, before, "--keys", str(keyfile))
    assert code == 0 and window_check(report)["ok"], report
    # the server's own POST /v1/verify names the same
    answer = window_check(client.post("/v1/verify", json=late).get_json())
    assert answer["detail"].startswith(signed_dates.RETIRED), answer
    # an auditor whose saved keys carry no windows, holding only a checkpoint: the log's
    # rotation leaf (in the checkpoint's leaves, from the server) catches both
    bare = {
        "keys": [
            {k: v for k, v in j.items() if k in ("kty", "crv", "x", "kid", "alg")}
            for j in published["keys"]
        ]
    }
    keyfile.write_text(json.dumps(bare))
    cp_file = tmp_path / "checkpoint.txt"
    cp_file.write_text(checkpoint)
    with api_server(redis_url, MARKETFOLD_SIGNING_KEY_DIR=str(key_dir)) as (server, _):
        audit = ("--keys", str(keyfile), "--checkpoint", str(cp_file), "--server", server)
        for bundle, name in ((late, signed_dates.RETIRED), (early, signed_dates.BACKDATED)):
            code, report = verify_cli(tmp_path, bundle, *audit)
            assert code == 1 and window_check(report)["detail"].startswith(name), report
        # a checkpoint the retired key signs later, of the log with its rotation
        text = note.split(requests.get(f"{server}/v1/transparency/checkpoint", timeout=10).text)[0]
        resigned = note.note(text, [note.sign(text, app.config["TLOG_ORIGIN"], key)])
        cp_file.write_text(resigned)
        code, report = verify_cli(tmp_path, before, *audit)
        checks = [c for c in report["checks"] if c["name"] == signed_dates.CHECK]
        assert code == 1 and any(
            c["detail"].startswith(f"{signed_dates.BACKDATED}: the checkpoint of size")
            for c in checks
        ), report
    if NODE:
        cases = ((late, signed_dates.RETIRED), (early, signed_dates.BACKDATED), (before, None))
        keyfile.write_text(json.dumps(published))
        for bundle, name in cases:
            _named(_rederive(tmp_path, bundle, "--keys", str(keyfile)), name)
        # keys saved without windows (or an operator publishing doctored ones): the log's own
        # key leaves, handed over with --leaves, fix the windows
        keyfile.write_text(json.dumps(bare))
        for bundle, name in cases:
            leaves = _leaves(client, tmp_path, bundle["transparency"]["tree_head"]["size"])
            args = ("--keys", str(keyfile), "--leaves", str(leaves))
            _named(_rederive(tmp_path, bundle, *args), name)
        # leaves that are not the log the head signs are named, never trusted
        doctored = json.loads(leaves.read_text())
        doctored[0]["leaves"][0]["leaf"] += " "
        leaves.write_text(json.dumps(doctored))
        done = _rederive(tmp_path, late, "--keys", str(keyfile), "--leaves", str(leaves))
        assert done.returncode == 1 and "hash to no root a trusted key signed" in done.stdout, done


def _named(done: subprocess.CompletedProcess, name: str | None) -> None:
    """rederive.js passed (`name` None), or failed the key-window check naming `name`."""
    if name is None:
        assert done.returncode == 0, done
    else:
        assert done.returncode == 1 and f"FAIL {signed_dates.CHECK}: {name}" in done.stdout, done


def _rederive(tmp_path, bundle: dict, *args: str) -> subprocess.CompletedProcess:
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(bundle))
    argv = ["node", "tools/rederive.js", *args, str(path)]
    return subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)


def _leaves(client, tmp_path, size: int):
    """The log's first `size` leaves as GET /v1/transparency/leaves serves them, in pages."""
    pages, start = [], 0
    while start < size:
        page = client.get(f"/v1/transparency/leaves?start={start}&end={size}").get_json()
        pages.append(page)
        start += len(page["leaves"])
    path = tmp_path / "leaves.json"
    path.write_text(json.dumps(pages))
    return path


def test_windows_from_the_log_name_each_case():
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    k1, k2 = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    id1, id2 = (signature.key_id(k.public_key()) for k in (k1, k2))
    texts = [
        '{"kind":"created"}',
        transparency.text(keylog.leaf(k1.public_key(), None, "2026-01-01T00:00:00Z", ["e" * 16])),
        '{"kind":"ended"}',
        transparency.text(keylog.leaf(k2.public_key(), k1, "2026-01-02T00:00:00Z")),
    ]
    windows = keylog.history(texts)
    # a key retired before rotations were logged stays valid for what it signed before
    assert (windows["e" * 16].last, windows["e" * 16].not_after) == (1, "2026-01-01T00:00:00Z")
    assert signed_dates.dated("e" * 16, "2025-12-01T00:00:00Z", windows, "x") is None
    assert (windows[id1].last, windows[id1].not_after) == (3, "2026-01-02T00:00:00Z")
    assert (windows[id2].first, windows[id2].not_before) == (3, "2026-01-02T00:00:00Z")
    assert signed_dates.dated(id1, "2026-01-01T23:59:59Z", windows, "x") is None
    assert signed_dates.dated(id1, "2026-01-02T00:00:00Z", windows, "x").startswith(
        signed_dates.RETIRED
    )
    assert signed_dates.dated(id2, "2026-01-01T00:00:00Z", windows, "x").startswith(
        signed_dates.NOT_YET
    )
    assert signed_dates.dated("0" * 16, "2026-01-01T00:00:00Z", windows, "x").startswith(
        signed_dates.UNLOGGED
    )
    assert signed_dates.sized(id1, 3, windows, "x") is None
    assert signed_dates.sized(id1, 4, windows, "x").startswith(signed_dates.BACKDATED)
    assert signed_dates.sized(id2, 3, windows, "x").startswith(signed_dates.NOT_YET)
    assert signed_dates.covers(id1, [0, 3], windows, "x").startswith(signed_dates.BACKDATED)
    # a rotation nobody holding the old key endorsed teaches a witness nothing
    forged = json.loads(texts[3])
    forged["endorsed"] = forged["endorsed"][::-1]
    assert keylog.learn([json.dumps(forged)], {id1: k1.public_key()}) == {}
    assert keylog.learn(texts, {id1: k1.public_key()}).keys() == {id2}


@pytest.mark.slow
def test_a_league_export_the_retired_key_signs_after_the_rotation_is_refused(redis_url, tmp_path):
    from tests.leagues.helpers import played_league

    key_dir = tmp_path / "keys"
    app = keyed_app(redis_url, key_dir)
    client = app.test_client()
    lid = played_league(client, app)[3]
    old = client.get(f"/v1/leagues/{lid}/export").get_json()["signature"]["kid"]
    rotate(key_dir)
    export = client.get(f"/v1/leagues/{lid}/export").get_json()  # signed by the new key
    keyfile = tmp_path / "published.json"
    keyfile.write_bytes(client.get("/v1/keys").data)
    forged = {
        **export,
        "signature": signature.sign(export, retired_key(key_dir, old), codec.now_iso()),
    }
    code, report = verify_cli(tmp_path, forged, "--keys", str(keyfile))
    assert code == 1 and window_check(report)["detail"].startswith(signed_dates.RETIRED), report
    code, report = verify_cli(tmp_path, export, "--keys", str(keyfile))
    assert code == 0 and window_check(report)["ok"], report

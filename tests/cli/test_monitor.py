"""`marketfold monitor` against a real server whose store the operator rewrote as it can
on its own machine: a game logged twice, a leaf that no longer matches its game's export,
a log cut back (rollback), a log rebuilt from a rewritten game (fork). Each is reported by
name; an untouched log gives no finding (docs/audit.md, "A monitor")."""

import json
import subprocess
import sys

import pytest

from events import tlog_keys, transparency
from service import transparency as public_log
from tests.conftest import ROOT, api_server
from tests.events.test_tlog_operator import drop_log, finished, rewrite_stream


def monitor(server: str, state, *extra) -> tuple[int, dict]:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "cli",
            "monitor",
            "--json",
            "--server",
            server,
            "--state",
            str(state),
            *extra,
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr, done
    return done.returncode, json.loads(done.stdout)


def named(report: dict) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for f in report["findings"]:
        out.setdefault(f["finding"], []).append(f["detail"])
    return out


def test_a_game_logged_twice_and_a_leaf_unlike_its_export_are_named(
    client, app, tmp_path, shared_server
):
    boot = app.extensions["marketfold"]
    gid = finished(client, app, 51)
    finished(client, app, 52)
    state, keyfile = tmp_path / "monitor.json", tmp_path / "keys.json"
    keyfile.write_bytes(client.get("/v1/keys").data)
    code, report = monitor(shared_server, state, "--keys", str(keyfile))
    assert code == 0 and report["findings"] == [] and report["games"] == 2, report
    assert [h["size"] for h in json.loads(state.read_text())["heads"]] == [
        7
    ]  # 2 games and the signing key's leaf

    # the operator rewrites the game, deletes its index entries and logs it again from
    # the rewritten store (what the sweep once did)
    rewrite_stream(boot, gid)
    boot.redis.hdel(tlog_keys.tlog_ids(), *[f"{gid}:{k}" for k in transparency.KINDS])
    for kind, leaf in transparency.from_log(boot.store.read(gid, 0)).items():
        boot.tlog.append(f"{gid}:{kind}", transparency.text(leaf))
    code, report = monitor(shared_server, state, "--keys", str(keyfile))
    found = named(report)
    assert code == 1 and set(found) == {"duplicate", "mismatch"}, report
    ref = transparency.game_ref(gid)[:16]
    assert any(d.startswith(f"game {ref}... has 2 started leaves") for d in found["duplicate"])
    assert f"game {gid}'s started leaf (index 1) does not match the game's export" in " ".join(
        found["mismatch"]
    )


@pytest.mark.slow
def test_a_rolled_back_log_and_a_forked_one_are_named(
    client, app, tmp_path, shared_server, redis_url
):
    boot = app.extensions["marketfold"]
    gid = finished(client, app, 61)
    for seed in (62, 63, 64):
        finished(client, app, seed)
    state, keyfile = tmp_path / "monitor.json", tmp_path / "keys.json"
    keyfile.write_bytes(client.get("/v1/keys").data)
    assert monitor(shared_server, state, "--keys", str(keyfile))[0] == 0

    for key in (tlog_keys.tlog_hashes(), tlog_keys.tlog_texts()):  # the log cut back to 9 leaves
        boot.redis.ltrim(key, 0, 8)
    boot.redis.delete(tlog_keys.tlog_head())
    code, report = monitor(shared_server, state, "--keys", str(keyfile))
    assert code == 1 and list(named(report)) == ["rollback"], report
    assert named(report)["rollback"][0].startswith(
        "the log was rolled back: a head of size 13 was seen"
    )
    assert named(report)["rollback"][0].endswith("the server's is 9")

    # then rebuilt from a rewritten game, and the server restarted: 13 leaves again (the
    # signing key's leaf logged anew at the first signature)
    rewrite_stream(boot, gid)
    drop_log(boot)
    assert public_log.sweep(boot) == 12
    with api_server(redis_url, MARKETFOLD_SIGNING_KEY_DIR=app.config["SIGNING_KEY_DIR"]) as (
        server,
        _,
    ):
        code, report = monitor(server, state, "--keys", str(keyfile))
    forks = named(report)["fork"]
    assert code == 1 and "rollback" not in named(report), report
    assert any(d.startswith("fork: two heads of size 13 with different roots") for d in forks)
    assert any(d.startswith("fork: the log's first 9 leaves no longer hash") for d in forks)
    assert len(json.loads(state.read_text())["heads"]) == 3  # every head kept as evidence


def test_leaves_served_unlike_the_signed_head_are_named(client, app, tmp_path, shared_server):
    boot = app.extensions["marketfold"]
    gid = finished(client, app, 81)
    state, keyfile = tmp_path / "monitor.json", tmp_path / "keys.json"
    keyfile.write_bytes(client.get("/v1/keys").data)
    # the operator edits a leaf's text where it lies but not its hash: the head still
    # signs the old tree, the leaves served say something else
    (end,) = boot.tlog.indexes([f"{gid}:ended"])
    text = boot.tlog.texts(end, end + 1)[0].replace('"events":', '"events":1')
    boot.redis.lset(tlog_keys.tlog_texts(), end, text)
    code, report = monitor(shared_server, state, "--keys", str(keyfile))
    assert code == 1 and named(report)["leaves"] == [
        "the 4 leaves served do not hash to the server's head"
    ], report
    assert named(report)["mismatch"][0].startswith(f"game {gid}'s ended leaf (index {end})")

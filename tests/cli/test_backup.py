"""`marketfold backup` while serving, `marketfold restore` into a fresh data directory on
"a new machine": every game comes back, its export verifies under the keys and the log's
head saved before the backup, and play goes on (docs/operations.md, "Backup and restore")."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import requests

from cli.demo import play
from cli.embedded import free_port
from tests.api.helpers import bearer
from tests.cli.test_cli import serve, stop, waiting_game
from tests.conftest import ROOT
from tests.support.waiting import wait_up

pytestmark = [pytest.mark.slow]


def marketfold(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cli", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_a_backup_taken_while_serving_restores_on_a_fresh_data_directory(tmp_path):
    first, port = tmp_path / "first", free_port()
    base = f"http://127.0.0.1:{port}"
    proc = serve(first, port)
    try:
        wait_up(base + "/healthz")
        finished = play(base, "gobcon", 2, {}, None, 7)
        assert finished["status"] == "finished"
        gid = finished["id"]
        waiting = waiting_game(base)
        (tmp_path / "keys.json").write_text(requests.get(base + "/v1/keys").text)
        push_key = requests.get(base + "/v1/push/key").json()
        bundle = requests.get(f"{base}/v1/games/{gid}/export").json()
        (tmp_path / "bundle.json").write_text(json.dumps(bundle))

        head = requests.get(base + "/v1/transparency/head").json()  # a player saves it
        (tmp_path / "head.json").write_text(json.dumps(head))
        made = marketfold("backup", str(tmp_path / "copy"), "--data-dir", str(first))
        assert made.returncode == 0, made.stderr
        later = waiting_game(base)  # after the backup: not in it
    finally:
        _, _, err = stop(proc)
    assert "Traceback" not in err
    manifest = json.loads((tmp_path / "copy" / "manifest.json").read_text())
    assert {"store.rdb", "queues.rdb"} <= set(manifest["files"])
    assert any(name.startswith("keys/") for name in manifest["files"])
    assert any(name.startswith("vapid/") for name in manifest["files"])

    second = tmp_path / "second"
    refused = marketfold("restore", str(tmp_path / "copy"), "--data-dir", str(first))
    assert refused.returncode == 2 and "not empty" in refused.stderr
    done = marketfold("restore", str(tmp_path / "copy"), "--data-dir", str(second))
    assert done.returncode == 0, done.stderr
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = serve(second, port)
    try:
        wait_up(base + "/healthz")
        assert requests.get(f"{base}/v1/games/{later}").status_code == 404
        again = requests.get(f"{base}/v1/games/{gid}/export").json()
        assert again["events"] == bundle["events"]
        (tmp_path / "again.json").write_text(json.dumps(again))
        # the same keys sign, and the log the restored server keeps extends the head a
        # player saved from the first one (a consistency proof from the restored server)
        checked = marketfold(
            "verify",
            str(tmp_path / "again.json"),
            "--json",
            "--keys",
            str(tmp_path / "keys.json"),
            "--seen",
            str(tmp_path / "head.json"),
            "--server",
            base,
        )
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert requests.get(base + "/v1/push/key").json() == push_key  # subscriptions hold
        assert requests.get(base + "/v1/keys").json() == json.loads(
            (tmp_path / "keys.json").read_text()
        )
        # and play goes on: a new player takes a seat of the waiting game
        joiner = requests.post(base + "/v1/players", json={"name": "after"}).json()
        res = requests.post(f"{base}/v1/games/{waiting}/join", headers=bearer(joiner))
        assert res.status_code == 200, res.text
    finally:
        stop(proc)

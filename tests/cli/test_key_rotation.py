"""A key rotation across a live server (#45 §4): two witnesses that pinned the keys
published before it, and a monitor, keep working. The rotation is a `key` leaf of the log
endorsed by the retired key; the witnesses learn the new key from it and cosign the
checkpoint it signs, and every game (before and after) still verifies with the
witnesses' quorum (docs/operations.md, "Rotating the signing key")."""

import json
import subprocess
import sys

import pytest

from cli.compose import create_app
from events import note, signed_dates
from tests.cli.test_witness import WITNESSED, Witnesses
from tests.conftest import ROOT, TEST_CONFIG
from tests.events.test_key_history import rotate
from tests.events.test_tlog_operator import finished


@pytest.mark.slow
def test_witnesses_and_the_monitor_keep_working_across_a_rotation(redis_url, tmp_path):
    key_dir = tmp_path / "keys"
    config = {**TEST_CONFIG, "REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url}
    app = create_app({**config, "SIGNING_KEY_DIR": str(key_dir)})
    client = app.test_client()
    first = finished(client, app, 101)
    w = Witnesses(tmp_path, client)  # they pin the keys published now: the first key only
    monitor_state = tmp_path / "monitor.json"

    def monitor(server):
        argv = [sys.executable, "-m", "cli", "monitor", "--server", server, "--json"]
        argv += ["--state", str(monitor_state), "--keys", str(w.keyfile)]
        done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert "Traceback" not in done.stderr, done
        return done.returncode, json.loads(done.stdout) if done.stdout else done.stderr

    with w.server(redis_url, app) as (server, _):
        for name in ("w1.example", "w2.example"):
            assert w.once(name, server)[0] == 0
        assert monitor(server)[0] == 0
        old = json.loads(w.keyfile.read_text())["keys"][0]["kid"]
        new = rotate(key_dir)  # while the server runs
        second = finished(client, app, 102)
        for name in ("w1.example", "w2.example"):
            code, out = w.once(name, server)
            assert code == 0 and out.startswith("cosigned"), out
        served = client.get("/v1/transparency/checkpoint").get_data(as_text=True)
        text, lines = note.split(served)
        assert [line.name for line in lines][1:] == ["w1.example", "w2.example"]
        code, report = monitor(server)
        assert code == 0 and report["findings"] == [], report
        assert report["head"]["signature"]["kid"] == new
        for gid in (first, second):
            bundle = client.get(f"/v1/games/{gid}/export").get_json()
            code, checks = w.verify(server, bundle)
            assert code == 0 and checks[WITNESSED]["ok"], checks
            assert checks[signed_dates.CHECK]["ok"], checks
        # the monitor's saved head signed by the old key stays valid for its size
        heads = json.loads(monitor_state.read_text())["heads"]
        assert [h["signature"]["kid"] for h in heads] == [old, new]

"""The operator against a player's kept receipt (#45 §2, §6): the bots play a game on a
live server and keep the receipt the stream sends at its end, an auditor saves a tree
head half a second after the end; then the operator rewrites the finished game's stream
in Redis (two players' names swapped, the chain rebuilt), logs the rewritten game anew
(the index and alarms deleted, new leaves appended) and exports it signed again. Every
check without what the players kept passes; each player's receipt alone catches it, and
so does the head saved 0.5 s after the end, with the server's leaves."""

import json
import shutil
import subprocess
import sys
import threading
import time

import pytest
import requests

from cli.bot import Bot
from events import log_checks, receipts, tlog_keys, transparency
from tests.conftest import ROOT, api_server
from tests.events.test_tlog_operator import rewrite_stream


def verify(tmp_path, bundle: bytes, *extra: str) -> tuple[int, dict]:
    path = tmp_path / "game.json"
    path.write_bytes(bundle)
    done = subprocess.run(
        [sys.executable, "-m", "cli", "verify", "--json", *extra, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.stdout, done.stderr
    return done.returncode, {c["name"]: c for c in json.loads(done.stdout)["checks"]}


def node_rederive(tmp_path, keyfile, receipt) -> subprocess.CompletedProcess:
    """tools/rederive.js on the bundle `verify` wrote last, with a kept receipt."""
    argv = ["node", "tools/rederive.js", "--keys", str(keyfile), "--seen", str(receipt)]
    return subprocess.run(
        [*argv, str(tmp_path / "game.json")], capture_output=True, text=True, cwd=ROOT
    )


def relog(boot, gid: str) -> None:
    """The operator logs the rewritten game anew, as the sweep did before it kept an
    append-only set of logged games: the index entries and alarms deleted, new leaves."""
    boot.redis.hdel(tlog_keys.tlog_ids(), *[f"{gid}:{k}" for k in transparency.KINDS])
    boot.redis.delete(tlog_keys.tlog_alarms(), tlog_keys.tlog_head())
    for kind, leaf in transparency.from_log(boot.store.read(gid, 0)).items():
        boot.tlog.append(f"{gid}:{kind}", transparency.text(leaf))


@pytest.mark.slow
def test_a_players_kept_receipt_catches_a_rewrite_of_the_finished_games_stream(
    app, redis_url, worker_process, tmp_path
):
    boot = app.extensions["marketfold"]
    worker_process()
    kept = tmp_path / "receipts"
    with api_server(redis_url) as (base, _):
        http = requests.Session()
        people = [http.post(f"{base}/v1/players", json={"name": f"k{i}"}).json() for i in range(3)]
        auth = {"Authorization": f"Bearer {people[0]['token']}"}
        body = {"ruleset": "goblin-market", "players": 3}
        gid = http.post(f"{base}/v1/games", json=body, headers=auth).json()["id"]
        for p in people:
            headers = {"Authorization": f"Bearer {p['token']}"}
            http.post(f"{base}/v1/games/{gid}/join", headers=headers).raise_for_status()
        bots = [
            Bot(base, gid, p["token"], seed=i, receipts=kept / p["name"])
            for i, p in enumerate(people)
        ]
        threads = [threading.Thread(target=b.play, daemon=True) for b in bots]
        for t in threads:
            t.start()
        while http.get(f"{base}/v1/games/{gid}").json()["status"] != "finished":
            time.sleep(0.1)
        time.sleep(0.5)  # an auditor saves a head half a second after the end
        head = tmp_path / "head.json"
        head.write_bytes(http.get(f"{base}/v1/transparency/head").content)
        for t in threads:
            t.join(60)
        keyfile = tmp_path / "keys.json"
        keyfile.write_bytes(http.get(f"{base}/v1/keys").content)
        files = [kept / p["name"] / f"{gid}.receipt.json" for p in people]
        assert all(f.exists() for f in files), [b.receipt for b in bots]
        assert all(b.calls <= b.moves + 8 for b in bots)  # taken from the game's stream
        genuine = http.get(f"{base}/v1/games/{gid}/export").content
        code, checks = verify(tmp_path, genuine, "--keys", str(keyfile), "--seen", str(files[0]))
        assert code == 0, checks
        assert checks[receipts.PROMISED]["ok"] and checks[log_checks.SEEN]["ok"]
        if shutil.which("node"):
            done = node_rederive(tmp_path, keyfile, files[0])
            assert done.returncode == 0, done.stdout + done.stderr
        code, checks = verify(
            tmp_path, genuine, "--keys", str(keyfile), "--seen", str(head), "--server", base
        )
        assert code == 0 and checks[receipts.HELD]["detail"].endswith(
            "of this game's leaves, the same"
        )

        rewrite_stream(boot, gid)  # the operator, on its own machine
        relog(boot, gid)
        forged = http.get(f"{base}/v1/games/{gid}/export").content

        code, checks = verify(tmp_path, forged, "--keys", str(keyfile))
        assert code == 0, checks  # without what the players kept, it passes every check
        for f in files:  # each player's receipt alone catches it
            code, checks = verify(tmp_path, forged, "--keys", str(keyfile), "--seen", str(f))
            assert code == 1
            why = checks[receipts.PROMISED]["detail"]
            assert "the game was rewritten after it ended" in why, why
            assert not checks[log_checks.SEEN]["ok"]
            if shutil.which("node"):  # the Node twin, from docs/audit.md alone
                done = node_rederive(tmp_path, keyfile, f)
                assert done.returncode == 1, done.stdout + done.stderr
                assert "FAIL the end its receipt promised: " in done.stdout, done.stdout
        # a head saved 0.5 s after the end held the original end leaf: with the server's
        # leaves it fails the rewrite, however short the delay
        code, checks = verify(
            tmp_path, forged, "--keys", str(keyfile), "--seen", str(head), "--server", base
        )
        assert code == 1
        assert checks[log_checks.SEEN]["ok"]  # within the merge delay: not this check
        why = checks[receipts.HELD]["detail"]
        assert "already held this game's" in why and "logged again" in why, why

"""The peer bench (bench/peer, issue #34.2) runs end to end in its quick mode: the driver
plays marketfold and both boardgame.io servers at 1, 8 and 32 clients as alternated
pairs, reads each server's CPU from /proc, and kills each server right after an
acknowledged move; marketfold keeps every acknowledged move. Its boardgame.io side comes
from npm (installed once into a cache), so the test needs node and npm."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from bench.peer import report
from tests.conftest import ROOT


@pytest.mark.slow
@pytest.mark.crash  # kill -9 of marketfold's and boardgame.io's servers
@pytest.mark.process
@pytest.mark.timeout(900)
@pytest.mark.skipif(
    shutil.which("node") is None or shutil.which("npm") is None,
    reason="node and npm are needed to run boardgame.io, the peer",
)
def test_the_driver_plays_both_servers_and_counts_what_survives_a_kill(tmp_path):
    out = tmp_path / "peer.json"
    done = subprocess.run(
        ["node", str(ROOT / "bench" / "peer" / "driver.cjs"), "--quick", "--json", str(out)],
        cwd=ROOT,
        env={**os.environ, "PYTHON": sys.executable},
        capture_output=True,
        text=True,
        timeout=900,  # the first run installs boardgame.io into the cache
    )
    assert done.returncode == 0, done.stderr[-3000:] + done.stdout[-3000:]
    result = json.loads(out.read_text("utf-8"))

    # every concurrency, every pair kind of the quick mode, both sides played whole games
    kinds = {(s["kind"], s["clients"]) for s in result["summary"]}
    assert kinds == {
        (f"marketfold one-call / boardgame.io {storage}", clients)
        for storage in ("flatfile", "memory")
        for clients in (1, 8, 32)
    }
    for run in result["runs"]:
        assert run["moves"] >= 20 * run["games"], run  # a whole game is some 40-70 moves
        assert run["rate"] > 0 and 0 < run["p50"] <= run["p99"], run
        assert run["driver_cpu"] > 0, run
    # CPU comes from each server's whole process tree
    for run in result["runs"]:
        groups = set(run["cpu"])
        if run["system"].startswith("marketfold"):
            assert {"gunicorn", "valkey"} <= groups, run
            assert run["cpu"]["gunicorn"] > 0, run
        else:
            assert groups == {"node"} and run["cpu"]["node"] > 0, run

    # kill -9 right after an acknowledged move: marketfold (fsync always) keeps them all
    kills = result["kills"]
    assert len(kills) == 4
    for trial in kills:
        assert trial["acked"] >= 4 and 0 <= trial["survived"] <= trial["acked"], trial
        if trial["system"] == "marketfold":
            assert trial["survived"] == trial["acked"], trial
    assert {t["system"] for t in kills} == {"marketfold", "boardgame.io FlatFile"}

    # and the section written to docs/performance.md shows every pair and the guarantees
    lines = report.rows(result)
    assert sum(1 for line in lines if line.startswith("| marketfold one-call /")) == 6
    assert any("survived" in line for line in lines)


@pytest.mark.skipif(
    shutil.which("node") is None or shutil.which("npm") is None,
    reason="node and npm are needed to run boardgame.io, the peer",
)
def test_the_driver_measures_the_stacks_ceiling_beside_the_peer(tmp_path):
    """`bare` plays bench/bare_app.py (one XADD per POST) under marketfold's gunicorn."""
    out = tmp_path / "peer.json"
    argv = ["--pairs", "bare/memory", "--clients", "1", "--games", "1:2", "--rounds", "1"]
    done = subprocess.run(
        ["node", str(ROOT / "bench" / "peer" / "driver.cjs"), *argv, "--kills", "0"]
        + ["--json", str(out)],
        cwd=ROOT,
        env={**os.environ, "PYTHON": sys.executable},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:] + done.stdout[-3000:]
    result = json.loads(out.read_text("utf-8"))
    assert [(s["kind"], s["clients"]) for s in result["summary"]] == [
        ("bare one-POST / boardgame.io memory", 1)
    ]
    ours = result["summary"][0]["ours"]
    assert ours["moves"] == 60 * ours["games"] == 120
    # Valkey is measured too; its 120 appends can take under one clock tick (/proc counts
    # 10 ms ticks), so its figure may be 0, but never missing
    assert ours["cpu"]["gunicorn"] > 0 and "valkey" in ours["cpu"], ours
    assert any(line.startswith("| bare one-POST /") for line in report.rows(result))


@pytest.mark.skipif(shutil.which("node") is None, reason="node runs the peer's game")
def test_the_peers_legal_moves_never_offer_a_move_without_arguments():
    """A seat whose coins do not top the high bid may only pass: the driver once picked a
    bid with no amount, boardgame.io refused it without an answer, and the match stalled."""
    script = (
        "const { legal } = require('./bench/peer/auction.cjs');"
        "const G = { phase: 'bid', toAct: '0', high: 5, coins: { 0: 5 } };"
        "const poor = legal(G, '0'); G.coins[0] = 7;"
        "console.log(JSON.stringify([poor, legal(G, '0')]));"
    )
    done = subprocess.run(["node", "-e", script], cwd=ROOT, capture_output=True, text=True)
    poor, rich = json.loads(done.stdout)
    assert poor == [{"move": "pass", "args": [[]]}]
    assert rich == [{"move": "bid", "args": [[6], [7]]}, {"move": "pass", "args": [[]]}]


def test_run_all_says_in_one_line_that_it_skipped_the_peer_without_node(monkeypatch):
    monkeypatch.setattr(report.shutil, "which", lambda tool: None)

    def never(*args, **kwargs):
        raise AssertionError("nothing is run without node")

    monkeypatch.setattr(report.subprocess, "run", never)
    assert report.section(quick=True) == [
        "- skipped: node and npm not found (the peer runs boardgame.io under Node)"
    ]

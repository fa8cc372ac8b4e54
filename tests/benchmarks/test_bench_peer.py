"""The peer bench (bench/peer, issues #34.2 and #48) runs end to end in its quick mode: the
driver plays marketfold and boardgame.io's servers (FlatFile, in memory, and on
PostgreSQL when its server programs are installed) at 1, 8 and 32 clients as alternated
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
        # one kill trial per system here (the bench's quick mode makes two, its full run
        # five): each trial restarts every server, and one already shows what survives
        ["node", str(ROOT / "bench" / "peer" / "driver.cjs"), "--quick", "--kills", "1"]
        + ["--json", str(out)],
        cwd=ROOT,
        env={**os.environ, "PYTHON": sys.executable},
        capture_output=True,
        text=True,
        timeout=900,  # the first run installs boardgame.io into the cache
    )
    assert done.returncode == 0, done.stderr[-3000:] + done.stdout[-3000:]
    result = json.loads(out.read_text("utf-8"))

    # every concurrency, every pair kind of the quick mode, both sides played whole games
    with_postgres = not result["skipped"]
    storages = ("flatfile", "memory", "postgres") if with_postgres else ("flatfile", "memory")
    kinds = {(s["kind"], s["clients"]) for s in result["summary"]}
    assert kinds == {
        (f"marketfold one-call / boardgame.io {storage}", clients)
        for storage in storages
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
        elif run["system"] == "boardgame.io postgres":  # its database's processes too
            assert groups == {"node", "postgres"} and run["cpu"]["postgres"] > 0, run
        else:
            assert groups == {"node"} and run["cpu"]["node"] > 0, run

    # kill -9 right after an acknowledged move: marketfold (fsync always) keeps them all
    kills = result["kills"]
    systems = ["boardgame.io FlatFile", "marketfold"]
    if with_postgres:
        systems += [
            "boardgame.io PostgreSQL, server killed",
            "boardgame.io PostgreSQL, server and PostgreSQL killed",
        ]
    assert sorted(t["system"] for t in kills) == sorted(systems)
    for trial in kills:
        assert trial["acked"] >= 4 and 0 <= trial["survived"] <= trial["acked"], trial
        if trial["system"] == "marketfold":
            assert trial["survived"] == trial["acked"], trial
        if trial["system"].startswith("boardgame.io PostgreSQL"):
            # PostgreSQL keeps what it committed: at most the moves not yet written are lost
            assert trial["survived"] >= trial["acked"] - 2 and not trial["note"], trial

    # and the section written to docs/performance.md shows every pair, the targets and
    # the guarantees
    lines = report.rows(result)
    assert sum(1 for line in lines if line.startswith("| marketfold one-call /")) == 3 * len(
        storages
    )
    assert any(line.startswith("| boardgame.io FlatFile, 1/8/32 |") for line in lines)
    postgres_row = [line for line in lines if line.startswith("| boardgame.io on PostgreSQL,")]
    assert len(postgres_row) == (1 if with_postgres else 0), lines
    assert any("survived" in line for line in lines)


@pytest.mark.process  # the driver starts Valkey and gunicorn
@pytest.mark.skipif(
    shutil.which("node") is None or shutil.which("npm") is None,
    reason="node and npm are needed to run boardgame.io, the peer",
)
def test_the_driver_measures_the_stacks_ceiling_beside_the_peer(tmp_path):
    """`bare` plays bench/moves/bare_app.py (one XADD per POST) under marketfold's gunicorn."""
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


@pytest.mark.process
@pytest.mark.skipif(
    shutil.which("node") is None or shutil.which("npm") is None,
    reason="node and npm are needed to run boardgame.io, the peer",
)
def test_without_postgresql_the_driver_says_so_and_skips_that_peer(tmp_path):
    out = tmp_path / "peer.json"
    argv = ["--pairs", "one-call/postgres", "--kills", "0", "--json", str(out)]
    done = subprocess.run(
        ["node", str(ROOT / "bench" / "peer" / "driver.cjs"), *argv],
        cwd=ROOT,
        env={**os.environ, "PYTHON": sys.executable, "PEER_PG_BIN": str(tmp_path / "none")},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:] + done.stdout[-3000:]
    assert "boardgame.io on PostgreSQL skipped: PostgreSQL's server programs" in done.stdout
    result = json.loads(out.read_text("utf-8"))
    assert result["summary"] == [] and result["runs"] == []
    lines = report.rows(result)
    assert any(line.startswith("- skipped: boardgame.io postgres: ") for line in lines)
    assert any(
        line.startswith("| boardgame.io on PostgreSQL, 1/8/32 | skipped: ") for line in lines
    )


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

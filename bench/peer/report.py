"""Run the peer driver (bench/peer/driver.cjs) and write its section of docs/performance.md.

    python -m bench.peer.report [--quick] [driver options ...]

prints the section (markdown) after the driver's own output; `bench/run_all.py` calls
`section(quick)`. Without node and npm it says so in one line and measures nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

GUARANTEES = [
    "- **marketfold** (appendfsync always): a move is acknowledged (the POST's 201) only "
    "after its append is written and fsynced by Valkey, so every acknowledged move "
    "survives a kill -9 of every process of the service.",
    "- **boardgame.io FlatFile**: the master sends the new state to the players first and "
    "writes it afterwards (node-persist: one JSON file per key, no fsync), so a kill right "
    "after a move was seen can lose that move and the ones still queued; a file cut short "
    "by the kill stops the match from loading again.",
    "- **boardgame.io on PostgreSQL** (bgio-postgres, synchronous_commit on): the master "
    "sends the new state to the players first, then writes it (a transaction that locks "
    "and updates the match's row, then an upsert of its metadata), so a kill of the "
    "server right after a move was seen can lose that move, though PostgreSQL keeps every "
    "write it committed, through a kill -9 of its own processes too (its WAL).",
    "- **boardgame.io in memory**: a kill loses every match (not tried: nothing is kept).",
]

# (pair kind, its name in the targets table, target at 1 / 8 / 32 clients; None: reference)
TARGETS = [
    ("marketfold one-call / boardgame.io flatfile", "boardgame.io FlatFile", (1.2, 1.5, 1.5)),
    ("marketfold one-call / boardgame.io postgres", "boardgame.io on PostgreSQL", (2, 2, 2)),
    ("marketfold one-call / boardgame.io memory", "boardgame.io in memory", None),
]


def targets(result: dict) -> list[str]:
    """One row per peer: marketfold one-call's median ratio at 1 / 8 / 32 clients, next to
    issue #48's target; a peer skipped or not measured says so."""
    skipped = {s["peer"]: s["why"] for s in result.get("skipped") or []}
    lines = [
        "| marketfold one-call vs | 1 / 8 / 32 clients | target | met |",
        "| --- | --- | --- | --- |",
    ]
    for kind, name, goal in TARGETS:
        by_clients = {s["clients"]: s["ratio"] for s in result["summary"] if s["kind"] == kind}
        peer = kind.split(" / ")[1]
        if not by_clients:
            why = skipped.get(peer)
            if why:
                lines.append(f"| {name}, 1/8/32 | skipped: {why} | | |")
            continue
        got = " / ".join(f"{by_clients[c]:.2f}x" if c in by_clients else "-" for c in (1, 8, 32))
        if goal is None:
            lines.append(f"| {name}, 1/8/32 | {got} | none (a reference) | |")
            continue
        met = all(r >= g for c, g in zip((1, 8, 32), goal) if (r := by_clients.get(c)) is not None)
        verdict = "yes" if met else "**no**"
        if len(by_clients) < 3:
            verdict += " (at the clients measured)"
        want = " / ".join(f"{g:g}x" for g in goal) if len(set(goal)) > 1 else f"{goal[0]:g}x"
        lines.append(f"| {name}, 1/8/32 | {got} | ≥ {want} | {verdict} |")
    return lines


def missing() -> str | None:
    """Why the peer cannot run here (None: it can). Installs its npm packages into their
    cache first (bench/peer/install.sh, once per lock file), so that a registry out of
    reach is said in one line too."""
    absent = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if absent:
        return f"{' and '.join(absent)} not found"
    if os.environ.get("PEER_NODE_MODULES_DIR"):
        return None
    done = subprocess.run([str(HERE / "install.sh")], capture_output=True, text=True)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        return f"npm could not install bench/peer's packages ({last[:200]})"
    os.environ["PEER_NODE_MODULES_DIR"] = done.stdout.strip()
    return None


def run(quick: bool, extra: list[str] | None = None) -> dict:
    """Run the driver (its progress on stdout) and return its JSON result."""
    with tempfile.TemporaryDirectory(prefix="peer-report-") as tmp:
        out = Path(tmp) / "peer.json"
        argv = ["node", str(HERE / "driver.cjs"), "--json", str(out)]
        argv += ["--quick"] if quick else []
        argv += extra or []
        env = {**os.environ, "PYTHON": os.environ.get("PYTHON", sys.executable)}
        subprocess.run(argv, cwd=ROOT, env=env, check=True)
        return json.loads(out.read_text("utf-8"))


def rows(result: dict) -> list[str]:
    """The section's lines: every pair's ratio and the median pair, CPU per move, kills."""
    lines = [
        f"- machine: {result['cores']} cores, {result['cpu']}; node {result['node']}; "
        f"{result['started'][:16].replace('T', ' ')} UTC",
        f"- load average at the start {result['load_start']}, at the end {result['load_end']} "
        "(1, 5, 15 minutes; on a shared machine a pair's ratio can move by a third)",
        *[f"- skipped: {s['peer']}: {s['why']}" for s in result.get("skipped") or []],
        "",
        *targets(result),
        "",
        "| marketfold / peer | clients | games | marketfold moves/s | p50 / p99 ms | "
        "peer moves/s | p50 / p99 ms | median ratio | every pair |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for s in result["summary"]:
        ours, theirs = s["ours"], s["theirs"]
        every = ", ".join(f"{r:.2f}" for r in s["ratios"])
        lines.append(
            f"| {s['kind']} | {s['clients']} | {ours['games']} | {ours['rate']:.0f} | "
            f"{ours['p50']:.1f} / {ours['p99']:.1f} | {theirs['rate']:.0f} | "
            f"{theirs['p50']:.1f} / {theirs['p99']:.1f} | **{s['ratio']:.2f}** | {every} |"
        )
    lines += [
        "",
        "CPU per move (µs) of each server process in the median pairs above (its whole "
        "process tree from /proc; marketfold: gunicorn master and workers, Valkey, the "
        "queues' Valkey, the RQ worker, `serve`'s supervisor; boardgame.io on PostgreSQL: "
        "its node and every PostgreSQL process), and of the driver itself:",
        "",
        "| run | clients | server processes | server | driver | load (1, 5, 15 min) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for s in result["summary"]:
        for run in (s["ours"], s["theirs"]):
            parts = ", ".join(f"{g} {us:.0f}" for g, us in sorted(run["cpu"].items()))
            lines.append(
                f"| {run['system']} | {run['clients']} | {parts} | {run['server_cpu']:.0f} | "
                f"{run['driver_cpu']:.0f} | {run['load']} |"
            )
    kills = result.get("kills") or []
    if kills:
        lines += [
            "",
            "kill -9 of the server's whole process tree right after the Nth acknowledged "
            "move of a 3-seat game (N from 4 to 20), then a restart on the same data "
            "(boardgame.io on PostgreSQL: of its server alone, PostgreSQL running on, and "
            "of its server and every PostgreSQL process at once):",
            "",
            "| server | trials | acknowledged moves | survived | lost | trials that lost moves "
            "| notes |",
            "| --- | --- | --- | --- | --- | --- | --- |",
        ]
        for system in dict.fromkeys(k["system"] for k in kills):
            these = [k for k in kills if k["system"] == system]
            acked = sum(k["acked"] for k in these)
            kept = sum(k["survived"] for k in these)
            losing = sum(1 for k in these if k["survived"] < k["acked"])
            notes = "; ".join(sorted({" ".join(k["note"].split()) for k in these if k["note"]}))
            notes = notes.replace("|", "\\|")
            lines.append(
                f"| {system} | {len(these)} | {acked} | {kept} | {acked - kept} | {losing} | "
                f"{notes} |"
            )
    return [*lines, "", *GUARANTEES]


def section(quick: bool) -> list[str]:
    """`bench/run_all.py`'s section: the rows, or one line saying why it was skipped."""
    why = missing()
    if why:
        return [f"- skipped: {why} (the peer runs boardgame.io under Node)"]
    return rows(run(quick))


def main() -> None:
    args = sys.argv[1:]
    quick = "--quick" in args
    why = missing()
    if why:
        print(f"skipped: {why}")
        return
    print("\n".join(rows(run(quick, [a for a in args if a != "--quick"]))))


if __name__ == "__main__":
    main()

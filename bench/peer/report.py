"""Run the peer driver (bench/peer/driver.cjs) and write its section of docs/performance.md.

    python bench/peer/report.py [--quick] [driver options ...]

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
    "- **boardgame.io in memory**: a kill loses every match (not tried: nothing is kept).",
]


def missing() -> str | None:
    """Why the peer cannot run here (None: it can)."""
    absent = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    return f"{' and '.join(absent)} not found" if absent else None


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
        "queues' Valkey, the RQ worker, `serve`'s supervisor), and of the driver itself:",
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
            "move of a 3-seat game (N from 4 to 20), then a restart on the same data:",
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

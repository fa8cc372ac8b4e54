"""Run every benchmark in one go and write the results to docs/performance.md.

    python -m bench.run_all [--quick] [--out docs/performance.md]

Starts a fresh embedded Redis (appendfsync always, as `marketfold serve`), the API under
gunicorn (as `marketfold serve`), one worker, and the bare Flask+gunicorn+XADD
endpoint (bench/moves/bare_app.py) on the same Redis, all on 127.0.0.1, then measures:

1. actions/s and POST latency over HTTP at 1, 8 and 32 clients, next to the bare
   endpoint at the same concurrency (bench/moves/actions.py; target: at least 75% of it), two
   calls a move and one (bench/moves/one_call.py), and
   the Redis round trips of one action (bench/moves/round_trips.py);
2. Redis bytes per event and per finished game, per ruleset (bench/storage/memory.py);
3. actions/s with 10, 100, 1,000 and 10,000 live games (bench/storage/live_games.py);
4. actions/s and /healthz latency with 1,000 open event streams (bench/streams/open_streams.py);
   /healthz latency under costly requests and slow bodies (bench/reliability/abuse.py);
5. reveals and missed deadlines with 200 games on 2-5 s deadlines at once, next to a
   handful (bench/jobs/phases.py --load, in a process of its own);
6. a 3-master cluster next to one Valkey (bench/storage/cluster.py), and what an action costs
   when its append waits for a replica, WAIT and WAITAOF (bench/storage/replicas.py);
7. marketfold next to boardgame.io (FlatFile, in memory, on PostgreSQL), alternated pairs
   at 1, 8 and 32 clients, the ratios against their targets, and what survives a kill -9
   of each (bench/peer: Node; skipped with a line without node/npm, and the PostgreSQL
   peer without PostgreSQL's server programs);
8. whole games per second with the pure rules, and fold time per event
   (bench/rules/speed.py).

Everything is bounded: about 6 minutes on the 2-core development machine, and the peer
section 5-10 more (--quick: two minutes, and one for the peer, smaller sizes, for a smoke
test). The tables are printed and written to --out.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.audit import proof
from bench.common import cpu_seconds, gunicorn, machine, own_cpu_seconds, settle, start_worker, stop
from bench.moves import action_cpu, round_trips
from bench.moves.actions import measure_bare, measure_http, seat_tables
from bench.peer import report as peer
from bench.prose.section_intros import (
    ABUSE_INTRO,
    CLUSTER_INTRO,
    CROWD_INTRO,
    FOLD_INTRO,
    HTTP_INTRO,
    MEMORY_INTRO,
    PARTS_INTRO,
    PEER_INTRO,
    PHASES_INTRO,
    PROOF_INTRO,
    REPLICAS_INTRO,
    RULES_INTRO,
    SCALE_INTRO,
    STREAMS_INTRO,
)
from bench.prose.where_time_goes import PROFILE
from bench.reliability import abuse
from bench.rules import speed
from bench.storage import cluster, live_games, memory, replicas
from bench.streams import open_streams
from cli.embedded import EmbeddedRedis, free_port
from cli.serve import raise_open_files_limit
from tests.support.waiting import wait_up

ROOT = Path(__file__).resolve().parent.parent

CLIENTS = {1: 4, 8: 16, 32: 32}  # clients -> full games played (per round)
ROUNDS = 5  # alternated marketfold/bare pairs per concurrency: the machine's speed drifts,
# and with 8 clients bare alone ran anywhere from 600 to 1,000 actions/s from pair to pair


def http_table(base: str, bare: str, quick: bool, pids: dict[str, int]) -> list[str]:
    """Actions/s at each concurrency, marketfold next to the bare endpoint: ROUNDS
    alternated rounds of (marketfold two calls a move, bare, marketfold one call a move),
    each on new games; for each pattern the figures are the round with the median ratio
    to that round's bare, and every round's ratio is shown. Then the CPU each process
    spent per action in those median rounds (`pids`: the API's and the bare endpoint's
    gunicorn, Valkey; the benchmark's own client threads too)."""
    head = (
        "| clients | games | actions | marketfold actions/s | p50 ms | p99 ms | "
        "bare XADD actions/s | p50 ms | p99 ms | marketfold / bare | per round |"
    )
    rule = "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    rows = {False: [head, rule], True: [head, rule]}
    cpu_rows = [
        "| clients | marketfold moves | API process | Valkey | benchmark client | all |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for clients, games in CLIENTS.items():
        games = max(clients, games // 4) if quick else games
        pairs: dict[bool, list] = {False: [], True: []}
        for _ in range(1 if quick else ROUNDS):
            two, one = seat_tables(base, games), seat_tables(base, games)
            before = _cpu(pids)
            ours = measure_http(base, clients, games, two)
            middle = _cpu(pids)
            theirs = measure_bare(bare, clients, ours.actions)
            after = _cpu(pids)
            single = measure_http(base, clients, games, one, one_call=True)
            last = _cpu(pids)
            bare_cpu = _per_action(middle, after, theirs, "bare")
            pairs[False].append((ours, theirs, _per_action(before, middle, ours, "api"), bare_cpu))
            pairs[True].append((single, theirs, _per_action(after, last, single, "api"), bare_cpu))
        for one_call, found in pairs.items():
            found.sort(key=lambda pair: pair[0].rate / pair[1].rate)
            ours, theirs, mine, base_cpu = found[len(found) // 2]
            rounds = ", ".join(f"{o.rate / t.rate:.0%}" for o, t, _, _ in found)
            rows[one_call].append(
                f"| {clients} | {games} | {ours.actions} | {ours.rate:.0f} | {ours.ms(50):.1f} | "
                f"{ours.ms(99):.1f} | {theirs.rate:.0f} | {theirs.ms(50):.1f} | "
                f"{theirs.ms(99):.1f} | {ours.rate / theirs.rate:.0%} | {rounds} |"
            )
            print(rows[one_call][-1], flush=True)
            cells = [f"{mine[k]:.0f} / {base_cpu[k]:.0f}" for k in ("api", "valkey", "client")]
            cells.append(f"{sum(mine.values()):.0f} / {sum(base_cpu.values()):.0f}")
            pattern = "one call" if one_call else "GET + POST"
            cpu_rows.append(f"| {clients} | {pattern} | " + " | ".join(cells) + " |")
    intro = (
        "CPU per action (µs, marketfold / bare, in the median rounds above; the API process "
        "is its gunicorn's master and workers, the bare endpoint's for bare):"
    )
    one = (
        "One call per move (`bench/moves/actions.py --one-call`, `bench/moves/one_call.py`): "
        "the same games, but each seat follows its game's event stream and moves with one POST, "
        "acting from its `owes` frames and from its answers' `actions`, never asking "
        "`GET /legal`; latency is the POST's. The bare endpoint keeps its GET+POST pattern "
        "(the same bare runs as above, one per round)."
    )
    return [*rows[False], "", one, "", *rows[True], "", intro, "", *cpu_rows]


def _cpu(pids: dict[str, int]) -> dict[str, float]:
    """CPU seconds used so far by the API (or bare endpoint), Valkey and this process."""
    return {**{k: cpu_seconds(pid) for k, pid in pids.items()}, "client": own_cpu_seconds()}


def _per_action(
    before: dict[str, float], after: dict[str, float], run, server: str
) -> dict[str, float]:
    """CPU µs per action of each process between two `_cpu` readings; `server` ("api" or
    "bare") is the one that served this run."""
    spent = {k: (after[k] - before[k]) * 1e6 / max(1, run.actions) for k in before}
    return {"api": spent[server], "valkey": spent["valkey"], "client": spent["client"]}


def section(title: str, intro: str, rows: list[str], seconds: float) -> list[str]:
    return [f"## {title}", "", intro, "", *rows, "", f"_(measured in {seconds:.0f} s)_", ""]


def timed(fn, *args):
    started = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - started


def run(quick: bool) -> list[str]:
    """Start the stack, run every measurement, stop the stack; return the document."""
    raise_open_files_limit()  # 1,000 open streams
    server = EmbeddedRedis(tempfile.mkdtemp(prefix="mf-bench-"), port=free_port()).start()
    port, bare_port = free_port(), free_port()
    procs = [
        gunicorn("cli.wsgi:app", port, server.url),
        gunicorn("bench.moves.bare_app:app", bare_port, server.url),
        start_worker(server.url),
    ]
    base, bare = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{bare_port}"
    doc = header(quick)
    try:
        wait_up(base + "/healthz")
        wait_up(bare + "/healthz")
        pids = {"api": procs[0].pid, "bare": procs[1].pid, "valkey": server.process.pid}
        settle(procs[0].pid)  # the offload helpers have started (api/offload.py)
        rows, spent = timed(http_table, base, bare, quick, pids)
        rows += ["", *round_trips.summary(round_trips.count(server.url))]
        print("\n".join(rows[-3:]), flush=True)
        doc += section("Actions over HTTP", HTTP_INTRO, rows, spent)
        doc += ["## Where the time of an action goes", "", PROFILE, ""]
        parts = ["actions", "inbox", "tlog", "glossary", "uploads"]
        rows, spent = timed(action_cpu.ab_rows, server.url, parts, 8, 1 if quick else 3)
        doc += section("CPU per action by part", PARTS_INTRO, rows, spent)
        figures, spent = timed(memory.measure, memory.deps_for(server.url), 2)
        doc += section("Redis memory", MEMORY_INTRO, memory.memory_table(figures), spent)
        print("\n".join(doc[-10:]), flush=True)
        levels = [10, 100, 1000] if quick else [10, 100, 1000, 10000]
        rows, spent = timed(live_games.scale_rows, base, server.url, levels)
        doc += section("Live games", SCALE_INTRO, live_games.scale_table(rows), spent)
        print("\n".join(doc[-10:]), flush=True)
        options = open_streams.parser().parse_args(["--rounds", "1"] if quick else [])
        rows, spent = timed(open_streams.stream_rows, base, port, options)
        doc += section("Open event streams", STREAMS_INTRO, rows, spent)
        print("\n".join(doc[-16:]), flush=True)
        options = open_streams.parser().parse_args(["--rounds", "1", "--crowd"])
        rows, spent = timed(open_streams.stream_rows, base, port, options)
        doc += section("Open event streams, crowded games", CROWD_INTRO, rows, spent)
        print("\n".join(doc[-12:]), flush=True)
        options = abuse.parser().parse_args(["--seconds", "5" if quick else "15"])
        rows, spent = timed(abuse.rows, base, port, server.url, options)
        doc += section("Cheap abuse", ABUSE_INTRO, abuse.HEAD + rows, spent)
        print("\n".join(doc[-8:]), flush=True)
        rows, spent = timed(proof.rows, server.url, 20_000 if quick else 100_000)
        doc += section("Proof without trust", PROOF_INTRO, rows, spent)
        print("\n".join(doc[-14:]), flush=True)
    finally:
        stop(procs)
        server.stop()
    rows, spent = timed(phases_under_load, quick)
    doc += section("Phases and deadlines under load", PHASES_INTRO, rows, spent)
    print("\n".join(doc[-12:]), flush=True)
    rows, spent = timed(cluster.run, 8, 8 if quick else 16, 1)
    doc += section("Redis Cluster", CLUSTER_INTRO, rows, spent)
    rows, spent = timed(replicas.run, 8, 8 if quick else 16, 1 if quick else 3)
    doc += section("Replicas", REPLICAS_INTRO, rows, spent)
    rows, spent = timed(peer.section, quick)
    doc += section("Next to boardgame.io", PEER_INTRO, rows, spent)
    print("\n".join(rows), flush=True)
    rows, spent = timed(speed.rules_table, 0.5 if quick else 1.5)
    doc += section("Pure rules", RULES_INTRO, rows, spent)
    rows, spent = timed(speed.fold_table)
    doc += section("Fold", FOLD_INTRO, rows, spent)
    return doc


def phases_under_load(quick: bool) -> list[str]:
    """`python -m bench.jobs.phases --load` in a process of its own (its players are greenlets,
    which needs gevent's patching from the start): its stack, its table and load averages."""
    sizes = ["--games", "50", "--seconds", "15"] if quick else []
    out = subprocess.run(
        [sys.executable, "-m", "bench.jobs.phases", "--load", *sizes],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    ).stdout.splitlines()
    keep = ("|", "load average", "workers:", "  (answers")
    rows = []
    for line in out:
        if not line.startswith(keep):
            continue
        if line.startswith("|") and rows and not rows[-1].startswith("|"):
            rows.append("")  # a table after a list item needs a blank line
        rows.append(f"- {line}" if line.startswith(("load", "workers")) else line)
    return rows


def header(quick: bool) -> list[str]:
    m = machine()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return [
        "# Performance",
        "",
        "Written by `python -m bench.run_all`" + (" --quick" if quick else "") + "; every "
        "figure below comes from one run on one machine, everything on 127.0.0.1.",
        "",
        f"- machine: {m['cores']} cores, {m['cpu']}; Python {m['python']}; {m['date']}",
        f"- load average when the run started: {load} (a shared machine makes every "
        "figure noisy: compare figures of the same run, not across runs)",
        "- service: embedded Valkey (appendfsync always), gunicorn 2 gevent processes "
        "(`cli.serve.gunicorn_argv`, as `marketfold serve`), one worker; the bare endpoint "
        "runs under the same gunicorn settings",
        "",
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes (a smoke test)")
    ap.add_argument("--out", default=str(ROOT / "docs" / "performance.md"))
    args = ap.parse_args()
    started = time.perf_counter()
    doc = run(args.quick)
    doc.append(f"Whole run: {time.perf_counter() - started:.0f} s.")
    Path(args.out).write_text("\n".join(doc) + "\n", encoding="utf-8")
    print("\n".join(doc))
    print(f"\nwritten to {args.out}")


if __name__ == "__main__":
    main()

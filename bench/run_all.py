"""Run every benchmark in one go and write the results to docs/performance.md.

    python bench/run_all.py [--quick] [--out docs/performance.md]

Starts a fresh embedded Redis (appendfsync always, as `marketfold serve`), the API under
gunicorn (as `marketfold serve`), one worker, and the bare Flask+gunicorn+XADD
endpoint (bench/bare_app.py) on the same Redis, all on 127.0.0.1, then measures:

1. actions/s and POST latency over HTTP at 1, 8 and 32 clients, next to the bare
   endpoint at the same concurrency (bench/actions.py; target: at least 75% of it), two
   calls a move and one (bench/one_call.py), and
   the Redis round trips of one action (bench/round_trips.py);
2. Redis bytes per event and per finished game, per ruleset (bench/perf_memory.py);
3. actions/s with 10, 100, 1,000 and 10,000 live games (bench/perf_scale.py);
4. actions/s and /healthz latency with 1,000 open event streams (bench/streams.py);
   /healthz latency under costly requests and slow bodies (bench/abuse.py);
5. reveals and missed deadlines with 200 games on 2-5 s deadlines at once, next to a
   handful (bench/phases.py --load, in a process of its own);
6. a 3-master cluster next to one Valkey (bench/cluster.py), and what an action costs
   when its append waits for a replica, WAIT and WAITAOF (bench/replicas.py);
7. marketfold next to boardgame.io, alternated pairs at 1, 8 and 32 clients, and what
   survives a kill -9 of each (bench/peer: Node; skipped with a line without node/npm);
8. whole games per second with the pure rules, and fold time per event
   (bench/perf_rules.py).

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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import (  # noqa: E402
    abuse,
    action_cpu,
    cluster,
    perf_memory,
    perf_rules,
    perf_scale,
    proof,
    replicas,
    round_trips,
    streams,
)
from bench.actions import measure_bare, measure_http, seat_tables  # noqa: E402
from bench.common import (  # noqa: E402
    cpu_seconds,
    gunicorn,
    machine,
    own_cpu_seconds,
    settle,
    start_worker,
    stop,
    wait_up,
)
from bench.peer import report as peer  # noqa: E402
from bench.where_time_goes import PROFILE  # noqa: E402
from cli.embedded import EmbeddedRedis, free_port  # noqa: E402
from cli.serve import raise_open_files_limit  # noqa: E402

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
        "One call per move (`bench/actions.py --one-call`, `bench/one_call.py`): the same "
        "games, but each seat follows its game's event stream and moves with one POST, "
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
        gunicorn("bench.bare_app:app", bare_port, server.url),
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
        figures, spent = timed(perf_memory.measure, perf_memory.deps_for(server.url), 2)
        doc += section("Redis memory", MEMORY_INTRO, perf_memory.memory_table(figures), spent)
        print("\n".join(doc[-10:]), flush=True)
        levels = [10, 100, 1000] if quick else [10, 100, 1000, 10000]
        rows, spent = timed(perf_scale.scale_rows, base, server.url, levels)
        doc += section("Live games", SCALE_INTRO, perf_scale.scale_table(rows), spent)
        print("\n".join(doc[-10:]), flush=True)
        options = streams.parser().parse_args(["--rounds", "1"] if quick else [])
        rows, spent = timed(streams.stream_rows, base, port, options)
        doc += section("Open event streams", STREAMS_INTRO, rows, spent)
        print("\n".join(doc[-16:]), flush=True)
        options = streams.parser().parse_args(["--rounds", "1", "--crowd"])
        rows, spent = timed(streams.stream_rows, base, port, options)
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
    rows, spent = timed(perf_rules.rules_table, 0.5 if quick else 1.5)
    doc += section("Pure rules", RULES_INTRO, rows, spent)
    rows, spent = timed(perf_rules.fold_table)
    doc += section("Fold", FOLD_INTRO, rows, spent)
    return doc


def phases_under_load(quick: bool) -> list[str]:
    """`bench/phases.py --load` in a process of its own (its players are greenlets, which
    needs gevent's patching from the start): its stack, its table and load averages."""
    sizes = ["--games", "50", "--seconds", "15"] if quick else []
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "phases.py"), "--load", *sizes],
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
        "Written by `python bench/run_all.py`" + (" --quick" if quick else "") + "; every "
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


HTTP_INTRO = (
    "Full Goblin Market games (3-6 seats, random legal moves), created and seated first, "
    "then played by N client threads; each turn is one GET of the legal actions and one "
    "POST of the action, and latency is the POST's. The bare endpoint does the same "
    "pattern (one GET of a stream's last entry, one POST doing one XADD) at the same "
    "concurrency, for as many actions, right after it; five such pairs per concurrency, "
    "and the row is the pair with the median ratio (every pair's ratio in the last "
    "column: on a shared 2-core machine one pair can be off by 20 points or more). "
    "Each round also plays marketfold one call a move (the second table). Targets "
    "(#34): marketfold at least 75% of bare at every concurrency (#21's, at least 65% "
    "and a p99 at 8 clients at most twice bare's, still stand). The round trips are "
    "counted by `bench/round_trips.py` (a pipeline is one)."
)
MEMORY_INTRO = (
    "Random games played to the end through the service's use cases (what the API "
    "writes), two per ruleset (fewest and most seats); `MEMORY USAGE key SAMPLES 0` of "
    "each of the game's keys, averaged per game, plus its share of the index of games. "
    "Envelopes are stored compressed (zstd) with a preset dictionary (events.codec); the "
    "idempotency hash keeps `<first> <last> <body digest>` per action (the answer is "
    "rebuilt from the log) and expires `IDEM_KEEP_S` (24 h) after the game ends; the "
    "snapshot is the folded record stored with the last append. Target: at most 500 "
    "bytes per event in all."
)
PARTS_INTRO = (
    "`bench/action_cpu.py --ab actions,inbox,tlog,glossary,uploads`: A/B in one process "
    "(the API's app through Flask's test client on the run's Valkey, Goblin Market games "
    "of 3-6 seats, each turn `GET /legal` then `POST /actions`), alternated runs with "
    "everything on and with one part switched off (monkey-patched by the benchmark, never "
    "in the service), three pairs of 8 games each; CPU of that one process per action, "
    "medians. `actions`: the POST answer's next legal actions (#34.1); `inbox`: the "
    "players' game sets and feed notes written with each append; `tlog`: the public log's "
    "leaves; `glossary`: the card glossary of `GET /legal`; `uploads`: the request body "
    "read by the upload middleware first. Differences of a few tens of µs are within the "
    "noise of a shared machine."
)
CLUSTER_INTRO = (
    "`bench/cluster.py`: the API (gunicorn, as above) on one standalone Valkey and on a "
    "3-master Valkey Cluster (no replicas, queues on their own Valkey), 8 clients playing "
    "full Goblin Market games on each in turn. On one machine the three masters share the "
    "same two cores, so this shows the cluster's overhead (client routing, the follow-up "
    "writes as a pipeline of their own), not the scale-out it gives across machines."
)
REPLICAS_INTRO = (
    "`bench/replicas.py`: the API (gunicorn, as above) on a master with one replica, both "
    "appendfsync always on loopback, answering each append at once (`APPEND_REPLICAS=0`), "
    "after `WAIT 1` (`APPEND_REPLICAS=1`) and after `WAITAOF 0 1` (`APPEND_REPLICA_AOF`: "
    "the replica has fsynced it), 8 clients playing full Goblin Market games on each in "
    "turn, alternated; each row is that setting's median round. What an acknowledged "
    "action costs so that a master's death loses none (docs/reliability.md, "
    '"Replicas"); across hosts add one network round trip per append.'
)
SCALE_INTRO = (
    "Live games (Goblin Market, 3 seats, started, waiting for a bid) are topped up to each "
    "level with the service's use cases (identical data, no HTTP); then 8 new games are "
    "played to the end over HTTP by 8 clients while the rest sit in Redis. `setup s` is "
    "the time it took to create the extra games. Each action touches only its own game's "
    "keys, so the rate should not depend on how many games rest in Redis."
)
RULES_INTRO = (
    "Random games played to the end with `games/` only (setup, legal, decide, evolve, "
    "resolve; event data through JSON), on one core. Random play makes GobCon and Black "
    "Market games much longer than real ones."
)
STREAMS_INTRO = (
    "`bench/streams.py`: 1,000 event streams held open by 250 tokens (each seated player "
    "follows its own game and its feed; the other tokens follow their feed; every token "
    "fills its four with streams of waiting games), read by one selector in a child "
    "process of the benchmark. Goblin Market actions/s (8 clients, 16 seated games) and "
    "/healthz latency (one probe every 20 ms) are measured without and with the streams, "
    "alternately, on new games each time. Targets: /healthz p99 under 100 ms with the "
    "streams open; actions/s with streams at least 80% of without."
)
CROWD_INTRO = (
    "`bench/streams.py --crowd --rounds 1`: as above, but the other tokens each also follow "
    "one of the games being played (about 11 spectators a game), so every event of a "
    "played game is sent some 15 times: the cost of the frames themselves. No target."
)
PHASES_INTRO = (
    "`bench/phases.py --load`: 200 Sorcerous Futures games (4 seats, steered towards closed "
    "auctions) played at once on 2-5 s deadlines for 60 s, one greenlet each polling its "
    "game every second; 10% of decisions are left to time out, the rest are answered "
    "after up to half the time left; the idle row is 4 such games. From the logs, in the "
    "server's clock: reveal = last sealed bid's append to the resolution's append (the "
    "queue's wait and the job); late = deadline in force to the default's append; "
    "`extended` counts deadlines given fresh ones, `outages` the heartbeat gaps recorded "
    "(the API's: over 0.75 s). One worker and the queues on a Valkey of their own "
    "(appendfsync everysec), as `marketfold serve`. Targets under load: "
    "reveal p99 under 1 s, default lateness p99 under 2 s (docs/workers.md)."
)
ABUSE_INTRO = (
    "`bench/abuse.py` (issue #27.6): /healthz latency (one probe every 20 ms) idle, while 4 "
    "anonymous clients loop over `POST /v1/verify` of a 1,926-event bundle (about 1.6 MB) "
    "and three `GET /v1/games/{id}/state?at=N` of the same game's log at random N, and "
    "while 4,300 slow POSTs from 5 tokens (headers, then a byte a second; each answered "
    "connection opened again at once) are kept going. Rate limits are lifted. Target: "
    "/healthz p99 under 100 ms under both. `python bench/abuse.py --compare` also runs both "
    "with the defences off (the figures before #27.6)."
)
PROOF_INTRO = (
    "`bench/proof.py` (issue #32): the public log of games grown to 100,000 leaves on the "
    "run's Valkey (appendfsync always: each leaf is one script call and one fsync), then a "
    "signed tree head, a game's receipt and a consistency proof at that size, and an "
    "export's Ed25519 signature. A game appends three leaves (created, started, ended) "
    "after the writes that call for them, so an action costs nothing, and a game's three "
    "writes one script call each; the per-action row spreads them over a game's events."
)
PEER_INTRO = (
    "`node bench/peer/driver.cjs` (issue #34.2): one Node driver plays `marketfold serve` "
    "(embedded Valkey, appendfsync always, and the queues' Valkey; gunicorn with two gevent "
    "processes; one RQ worker) and boardgame.io 0.50's own `Server` with FlatFile storage "
    "(node-persist writing each file at once, not from its once-a-second queue) and in memory, "
    "all on this machine. The peer's game (bench/peer/auction.cjs) is an auction shaped "
    "like Goblin Market (lots sized by a turned card, bid or pass in turn, take all or "
    "one, payouts by the bid's last digit and a goblin card) whose hands are hidden by its "
    "`playerView`; marketfold plays Goblin Market. Games of 3-6 seats are seated first; "
    "each client then plays its share of them, one after another. marketfold one-call: "
    "each seat follows its event stream and acts on the `owes` frame's `actions` or its "
    "last answer's (docs/clients.md); two-call: `GET /legal`, then `POST`. boardgame.io: "
    "one socket.io connection per seat, a move is one `update` message. A move's latency "
    "runs from sending it to the mover seeing the new state (marketfold's answer, "
    "boardgame.io's `update` to the mover). Each concurrency is five rounds of "
    "alternated pairs (marketfold, then the peer, on new games), and the row is the pair "
    "with the median ratio of moves/s. Targets: marketfold one-call at least 1.5x "
    "boardgame.io FlatFile and at least 0.6x boardgame.io in memory."
)
FOLD_INTRO = (
    "`events.record.fold_all` over finished logs (the envelopes the service writes), best "
    "of three, on one core: the cost of refolding a log when no snapshot helps."
)


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

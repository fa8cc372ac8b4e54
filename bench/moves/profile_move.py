"""Where a one-call move's CPU goes inside the API's processes, by part (issue #34).

    python -m bench.moves.profile_move [--clients 8] [--games 96] [--rate 250] [--processes 2]

Starts a fresh embedded Valkey (appendfsync always, as `marketfold serve`), the API under
gunicorn (`--processes` gevent workers, two as served) and one RQ worker, seats Goblin
Market games of 3-6 players, then plays them one call per move (bench/moves/one_call.py:
every seat follows its event stream) while py-spy samples the gunicorn workers. py-spy is
a sampling profiler that attaches to a running process from outside (ptrace), so the
service runs unchanged; its `raw` output is one line per distinct stack with its sample count.

Each sample goes to the first part in PARTS whose frame its stack holds, and the table
gives each part's share of the samples and, from the workers' CPU per move (/proc, over
the same play), its microseconds per move. Idle samples (a greenlet waiting) are not
taken, so the shares are of CPU, not of wall time.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import children, cpu_seconds, gunicorn, machine, start_worker
from bench.moves.actions import measure_http, seat_tables
from cli.embedded import EmbeddedRedis, free_port
from tests.support.waiting import wait_up

LINE = re.compile(r":\d+\)")  # a frame's line number
# (part, frames that put a sample there), tried in order: the first part that matches wins
PARTS = [
    (
        "set-up: players, tables, stream opens",
        (
            "create_player (api/games.py)",
            "create_game (api/games.py)",
            "join_game (api/games.py)",
            "get_game (api/games.py)",
            "stream_events (api/sse.py)",
        ),
    ),
    ("streams: frames written to clients", ("write_chunk (gunicorn/util.py)",)),
    ("streams: frames made (redaction, owes, legal actions)", ("GameStream.entry ",)),
    ("streams: their loops and wake-ups", ("follow (api/streams.py)",)),
    ("streams: the shared reader (XREAD)", ("Reader.run (stores/hub.py)",)),
    ("action: the append (encoding, Redis round trip)", ("RedisRecorder.append ",)),
    ("action: the rules (decide)", ("act.<locals>.decide_act ",)),
    ("action: the fold of the new events", ("GameLog.fold ",)),
    ("action: players' inboxes and feeds", ("after_append (service/inbox.py)",)),
    ("action: the rest of the use case", ("act (service/game_commands.py)",)),
    ("action: the answer's next actions", ("action_answer (api/games.py)",)),
    (
        "action: token, rate limit, body (api.entry, api.parse)",
        ("post_action (api/games.py)", "begin (api/entry.py)"),
    ),
    ("HTTP: answers written", ("Response.write (gunicorn/http/wsgi.py)",)),
    ("HTTP: Flask and werkzeug", ("Flask.__call__ (flask/app.py)",)),
    ("HTTP: gunicorn reading requests", ("(gunicorn/",)),
    ("the gevent hub (event loop)", ("Hub.run (gevent/hub.py)",)),
]


def part_of(stack: str) -> str:
    """The part a sampled stack (py-spy's raw format: `function (file:line)` frames joined
    by ';') belongs to."""
    stack = LINE.sub(")", stack)
    for name, frames in PARTS:
        if any(frame in stack for frame in frames):
            return name
    return "other (heartbeats, timers, Redis client set-up)"


def tally(raw_files: list[Path]) -> collections.Counter[str]:
    """Samples per part over py-spy's raw output files."""
    out: collections.Counter[str] = collections.Counter()
    for path in raw_files:
        for line in path.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if stack and count.isdigit():
                out[part_of(stack)] += int(count)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--games", type=int, default=96)
    ap.add_argument("--rate", type=int, default=250, help="py-spy samples per second")
    ap.add_argument("--processes", type=int, default=2, help="gunicorn processes")
    ap.add_argument("--keep", type=Path, help="copy py-spy's raw stacks into this directory")
    args = ap.parse_args()
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not os.path.exists(spy):
        sys.exit("py-spy is not installed: pip install -e '.[test]'")
    work = Path(tempfile.mkdtemp(prefix="mf-profile-"))
    valkey = EmbeddedRedis(work / "valkey", port=free_port(), appendfsync="always").start()
    port = free_port()
    api = gunicorn("cli.wsgi:app", port, valkey.url, workers=args.processes)
    worker = start_worker(valkey.url)
    spies: list[subprocess.Popen] = []
    try:
        base = f"http://127.0.0.1:{port}"
        wait_up(base + "/healthz")
        measure_http(base, 2, 2, one_call=True)  # warm up: lazy imports, caches
        tables = seat_tables(base, args.games)
        workers = children(api.pid)
        raws = [work / f"{pid}.txt" for pid in workers]
        spies = [
            subprocess.Popen(
                [spy, "record", "--pid", str(pid), "--rate", str(args.rate), "--format", "raw"]
                + ["--output", str(raw), "--nonblocking"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            for pid, raw in zip(workers, raws, strict=True)
        ]
        cpu_before = sum(cpu_seconds(pid) for pid in workers)
        played = measure_http(base, args.clients, args.games, tables, one_call=True)
        cpu = sum(cpu_seconds(pid) for pid in workers) - cpu_before
        for p in spies:
            p.send_signal(signal.SIGINT)  # py-spy writes its file on SIGINT
        for p in spies:
            _, err = p.communicate(timeout=60)
            if p.returncode not in (0, -signal.SIGINT, 130):
                sys.exit(f"py-spy failed: {err.decode()[-500:]}")
        parts = tally([raw for raw in raws if raw.exists()])
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            for raw in raws:
                shutil.copy(raw, args.keep / f"worker-{raw.name}")
    finally:
        for p in spies:
            if p.poll() is None:
                p.kill()
        for p in (api, worker):
            p.terminate()
            p.wait(10)
        valkey.stop()
        shutil.rmtree(work, ignore_errors=True)
    total = sum(parts.values()) or 1
    per_move = cpu / played.actions * 1e6
    info = machine()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"machine: {info['cores']} cores, {info['cpu']}, Python {info['python']}; load {load}")
    print(
        f"{args.clients} clients, {args.games} Goblin Market games, {played.actions} one-call "
        f"moves at {played.rate:.0f}/s; the gunicorn workers' CPU {per_move:.0f} µs per move; "
        f"{total} samples"
    )
    print("| part | share of the samples | µs per move |")
    print("| --- | --- | --- |")
    for name, count in parts.most_common():
        print(f"| {name} | {count / total:.1%} | {per_move * count / total:.0f} |")


if __name__ == "__main__":
    main()

"""Helpers shared by the benchmarks: starting gunicorn and workers, CPU readings,
percentiles (waiting: tests/support/waiting.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from cli.serve import gunicorn_argv

ROOT = Path(__file__).resolve().parent.parent


def gunicorn(app: str, port: int, redis_url: str, workers: int = 2, root: Path = ROOT, **more: str):
    """Start `app` under gunicorn on a loopback port with the same command line as
    `marketfold serve` (cli.serve.gunicorn_argv); `more`: more environment variables;
    `root`: the checkout whose code it runs (another revision, for an A/B)."""
    env = {
        **os.environ,
        **more,
        "REDIS_URL": redis_url,
        "PYTHONPATH": str(root),
        # the load comes from one address: lift the per-IP and per-token limits
        "MARKETFOLD_RATE_LIMIT_ANON": "10000000/minute",
        "MARKETFOLD_RATE_LIMIT_TOKEN": "10000000/minute",
        # and the waiting games one player may keep (benchmarks create many, then seat them)
        "MARKETFOLD_WAITING_GAMES_PER_PLAYER": "10000000",
        # no access line per request: the figures are printed on this terminal
        "MARKETFOLD_ACCESS_LOG": "false",
    }
    argv = gunicorn_argv(port=port, processes=workers, app=app)
    return subprocess.Popen(argv, env=env, cwd=root)


def settle(pid: int, most_s: float = 30.0) -> None:
    """Wait until process `pid` and its children have nearly stopped using CPU (an API's
    offload helpers import the app after it answers its first /healthz: that CPU must
    not count against the first measurement)."""
    deadline, used = time.monotonic() + most_s, cpu_seconds(pid)
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = cpu_seconds(pid)
        if now - used < 0.05:
            return
        used = now


def percentile(values: list[float], p: float) -> float:
    """Return the p-th percentile (nearest rank) of `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def machine() -> dict[str, str]:
    """Describe this machine: cores, CPU model (from /proc/cpuinfo), Python, date."""
    import datetime
    import platform

    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cores": str(os.cpu_count()),
        "cpu": model,
        "python": platform.python_version(),
        "date": datetime.date.today().isoformat(),
    }


def start_worker(redis_url: str, rq_url: str | None = None) -> subprocess.Popen:
    """Start `marketfold worker` in its own process group (RQ forks a scheduler), its
    queues on `rq_url` (default: the store's Redis)."""
    env = {**os.environ, "REDIS_URL": redis_url, "PYTHONPATH": str(ROOT)}
    env["RQ_REDIS_URL"] = rq_url or redis_url
    return subprocess.Popen(
        [sys.executable, "-m", "cli", "worker"],
        env=env,
        cwd=ROOT,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def stop(procs: list[subprocess.Popen]) -> None:
    """Stop processes started here: SIGTERM, then SIGKILL to their group if they hang."""
    import signal

    for proc in procs:
        if proc.poll() is None:
            proc.terminate()
    for proc in procs:
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def rss_kib(pid: int) -> int:
    """Return a process's resident memory in KiB (VmRSS from /proc), 0 if it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def children(pid: int) -> list[int]:
    """Return the pids whose parent is `pid` (e.g. gunicorn's workers)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def cpu_seconds(pid: int) -> float:
    """Return the CPU time (user + system) process `pid` and its children alive now have
    used, from /proc (Linux; 0.0 where there is no /proc)."""
    total = 0.0
    todo = [pid]
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    while todo:
        p = todo.pop()
        try:
            stat = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(stat[11]) + int(stat[12])) / tick  # utime, stime
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError, IndexError):
            continue
    return total


def own_cpu_seconds() -> float:
    """Return the CPU time this process (every thread) has used."""
    t = os.times()
    return t.user + t.system

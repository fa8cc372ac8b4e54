"""`marketfold serve`: embedded Redis, gunicorn and workers as supervised children; a
bounded, complete stop on Ctrl-C; crashed children restarted; data kept across restarts."""

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import redis
import requests

from cli.embedded import free_port
from events import keys
from tests.api.helpers import bearer
from tests.conftest import ROOT
from tests.support.waiting import wait_up

pytestmark = [pytest.mark.slow, pytest.mark.crash]


def serve(
    data_dir, port, *extra: str, cwd: Path = ROOT, settings: dict[str, str] | None = None
) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["PYTHONPATH"] = str(ROOT)
    env.update(settings or {})
    argv = [sys.executable, "-m", "cli", "serve", "--port", str(port), "--data-dir", str(data_dir)]
    # its output goes to files, read at the end (`stop`): a pipe nobody reads while it
    # serves fills up with access lines, and every process of serve then blocks writing
    logs = Path(tempfile.mkdtemp(prefix="serve-log-"))
    proc = subprocess.Popen(
        [*argv, "--http-workers", "1", *extra],
        env=env,
        cwd=cwd,
        stdout=(logs / "out").open("w"),
        stderr=(logs / "err").open("w"),
        text=True,
    )
    proc.logs = logs  # type: ignore[attr-defined]
    return proc


def descendants(pid: int) -> set[int]:
    """Every live process below `pid`."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(ppid, []).append(int(entry.name))
    out, todo = set(), [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            out.add(child)
            todo.append(child)
    return out


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie has exited; only its parent has not collected it yet
        return (Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]) != "Z"
    except OSError:
        return False


def child_pid(proc: subprocess.Popen, marker: str) -> int:
    """The pid of serve's direct child whose command line contains `marker`."""
    for pid in descendants(proc.pid):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            ppid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue
        if marker in cmd and ppid == proc.pid:
            return pid
    raise AssertionError(f"no child running {marker!r}")


def waiting_game(base: str) -> str:
    """Register a player and create a Goblin Market game; return its id."""
    player = requests.post(base + "/v1/players", json={"name": "ana"}).json()
    return requests.post(
        base + "/v1/games",
        json={"ruleset": "goblin-market", "players": 3},
        headers=bearer(player),
    ).json()["id"]


def stop(proc: subprocess.Popen, signals: int = 1) -> tuple[float, str, str]:
    """Ctrl-C `proc` (`signals` times, 0.3 s apart); return seconds to exit and output."""
    started = time.monotonic()
    for i in range(signals):
        if i:
            time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
    proc.wait(timeout=30)
    took = time.monotonic() - started
    return took, (proc.logs / "out").read_text(), (proc.logs / "err").read_text()


def test_serve_keeps_games_across_a_restart_and_refuses_a_second_server(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    first = serve(tmp_path, port)
    try:
        wait_up(base + "/healthz")
        gid = waiting_game(base)
        push_key = requests.get(f"{base}/v1/push/key").json()["public_key"]
        second = serve(tmp_path, free_port())
        second.wait(timeout=30)
        err = (second.logs / "err").read_text()
        assert second.returncode == 1 and "already running" in err
        redis_pid = int((tmp_path / "valkey.pid").read_text())
        children = descendants(first.pid)
    finally:
        seconds, out, err = stop(first, signals=2)  # a second Ctrl-C while it stops
    assert first.returncode == 0 and "stopped" in out
    assert seconds < 12, f"serve took {seconds:.1f} s to stop"
    assert not alive(redis_pid)
    assert not [pid for pid in children if alive(pid)], "a child outlived serve"
    assert "SIGKILL" not in err and "Traceback" not in err, err
    again = serve(tmp_path, port)
    try:
        wait_up(base + "/healthz")
        res = requests.get(f"{base}/v1/games/{gid}")
        assert res.status_code == 200 and res.json()["status"] == "waiting"
        # the Web Push key is kept in the data directory: browsers stay subscribed
        assert requests.get(f"{base}/v1/push/key").json()["public_key"] == push_key
        assert (tmp_path / "vapid" / "private_key.pem").exists()
    finally:
        stop(again)


def test_an_idle_serve_stops_on_ctrl_c_within_seconds_killing_nothing(tmp_path):
    """Ctrl-C stops the programs before the stores they use: a worker stopped after its
    queues' store spent its stop retrying a connection to it, and was killed for lateness
    7 s later ("worker-1 did not stop in time; killing it")."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = serve(tmp_path, port)
    try:
        wait_up(base + "/healthz")
        queues = redis.Redis(unix_socket_path=str(tmp_path / "queues" / "valkey.sock"))
        ends = time.monotonic() + 20
        while not queues.smembers("rq:workers") or not queues.keys("rq:scheduler-lock:*"):
            assert time.monotonic() < ends, "the worker and its scheduler did not start"
            time.sleep(0.1)
        waiting_game(base)
    finally:
        seconds, out, err = stop(proc)
    print(f"serve stopped in {seconds:.2f} s")
    assert proc.returncode == 0 and "stopped" in out
    assert "did not stop in time" not in err and "SIGKILL" not in err, err
    assert seconds < 6, f"serve took {seconds:.1f} s to stop (about 2 s on an idle machine)"


def test_serve_on_a_store_named_by_marketfold_redis_url_starts_no_redis_of_its_own(
    tmp_path, redis_url
):
    """Every setting may carry the `MARKETFOLD_` prefix (service.config): serve started an
    embedded Valkey and a queues' Valkey beside a store named so, and said it served on
    the embedded one."""
    port = free_port()
    proc = serve(tmp_path, port, settings={"MARKETFOLD_REDIS_URL": redis_url})
    try:
        wait_up(f"http://127.0.0.1:{port}/healthz")
        gid = waiting_game(f"http://127.0.0.1:{port}")
        assert redis.Redis.from_url(redis_url).exists(keys.game_events(gid))
        assert not [p for p in descendants(proc.pid) if "valkey" in _cmdline(p)]
    finally:
        _, out, err = stop(proc)
    assert f"(Redis: {redis_url})" in out, out
    assert "Traceback" not in err, err[-3000:]


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def test_serve_from_another_directory_with_a_relative_data_directory_answers_offloaded_requests(
    tmp_path,
):
    """`marketfold serve --data-dir data` run outside the code's directory: the API's helper
    processes (api/offload.py) run in the code's directory, and used to look for the data
    directory's metrics and keys there, dying at start; a state in the past then failed."""
    port = free_port()
    proc = serve("data", port, cwd=tmp_path)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_up(base + "/healthz")
        gid = waiting_game(base)
        past = requests.get(f"{base}/v1/games/{gid}/state", params={"at": 1}, timeout=30)
        assert past.status_code == 200, past.text
        assert (tmp_path / "data" / "metrics").is_dir()
    finally:
        _, out, err = stop(proc)
    assert "Traceback" not in err, err[-3000:]


def test_serve_restarts_a_killed_worker_and_api_and_deadlines_keep_firing(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = serve(tmp_path, port, "--workers", "2")
    try:
        wait_up(base + "/healthz")
        queues = redis.Redis(unix_socket_path=str(tmp_path / "queues" / "valkey.sock"))
        ends = time.monotonic() + 20
        while len(queues.smembers("rq:workers")) < 2:  # --workers 2
            assert time.monotonic() < ends, "two workers did not register"
            time.sleep(0.1)
        os.kill(child_pid(proc, "cli worker"), signal.SIGKILL)
        api = child_pid(proc, "gunicorn")
        os.kill(api, signal.SIGKILL)
        ends = time.monotonic() + 20
        while True:  # until serve runs a new API (the old one's workers die with it)
            try:
                if child_pid(proc, "gunicorn") != api:
                    break
            except AssertionError:  # between the two
                pass
            assert time.monotonic() < ends, "the API was not restarted"
            time.sleep(0.1)
        wait_up(base + "/healthz")  # the new API answers
        people = [
            requests.post(base + "/v1/players", json={"name": f"p{i}"}).json() for i in range(3)
        ]
        gid = requests.post(
            base + "/v1/games",
            json={"ruleset": "goblin-market", "players": 3, "decision_timeout_s": 1},
            headers=bearer(people[0]),
        ).json()["id"]
        for p in people:
            requests.post(f"{base}/v1/games/{gid}/join", headers=bearer(p)).raise_for_status()
        ends = time.monotonic() + 30
        while time.monotonic() < ends:  # nobody plays: only deadlines move the game
            log = requests.get(f"{base}/v1/games/{gid}/events").json()["events"]
            if any(e["type"] == "game.DecisionTimedOut" for e in log):
                break
            time.sleep(0.2)
        else:
            raise AssertionError("no deadline fired after the worker was restarted")
        assert requests.get(base + "/healthz").status_code == 200
    except BaseException:
        print("serve said:", *stop(proc)[1:], sep="\n")  # shown with the failure
        raise
    seconds, out, err = stop(proc)
    assert seconds < 12 and proc.returncode == 0
    assert "worker-1 stopped (signal SIGKILL)" in err or "worker-2 stopped (signal SIGKILL)" in err
    assert "api stopped (signal SIGKILL)" in err and "restarted" in err
    assert "'api': 1" in out  # the count is reported at the end


def test_open_streams_end_promptly_when_serve_stops(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = serve(tmp_path, port)
    try:
        wait_up(base + "/healthz")
        gid = waiting_game(base)
        streams = []
        for _ in range(5):
            s = socket.create_connection(("127.0.0.1", port), timeout=20)
            s.sendall(f"GET /v1/games/{gid}/events/stream HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            assert s.recv(100).startswith(b"HTTP/1.1 200")
            streams.append(s)
    finally:
        seconds, _, err = stop(proc)
    # each stream was finished cleanly (the last chunk sent) rather than cut at a timeout
    for s in streams:
        rest = b""
        while chunk := s.recv(4096):
            rest += chunk
        assert rest.endswith(b"0\r\n\r\n")
        assert b": closing: the server is stopping" in rest  # the closing frame, then the end
    assert seconds < 10, f"serve took {seconds:.1f} s to stop with streams open"
    assert "SIGKILL" not in err and "graceful timeout" not in err
    assert "Traceback" not in err, err  # nothing thrown into a greenlet done with its stream

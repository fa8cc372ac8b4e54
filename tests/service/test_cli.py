"""`marketfold serve`: embedded Redis, gunicorn and a worker; clean stop; data survives."""

import os
import signal
import subprocess
import sys
import time

import requests

from service.embedded import free_port
from tests.conftest import ROOT


def serve(data_dir, port):
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "service.cli",
            "serve",
            "--port",
            str(port),
            "--data-dir",
            str(data_dir),
            "--http-workers",
            "1",
        ],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_up(base):
    for _ in range(300):
        try:
            return requests.get(base + "/healthz", timeout=1)
        except requests.ConnectionError:
            time.sleep(0.05)
    raise AssertionError("the service did not come up")


def pid_alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


def test_serve_keeps_games_across_a_restart_and_refuses_a_second_server(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    first = serve(tmp_path, port)
    try:
        wait_up(base)
        player = requests.post(base + "/v1/players", json={"name": "ana"}).json()
        game = requests.post(
            base + "/v1/games",
            json={"ruleset": "goblin-market", "players": 3},
            headers={"Authorization": f"Bearer {player['token']}"},
        ).json()
        second = serve(tmp_path, free_port())
        _, err = second.communicate(timeout=30)
        assert second.returncode == 1 and "already running" in err
        redis_pid = int((tmp_path / "valkey.pid").read_text())
    finally:
        first.send_signal(signal.SIGINT)
        out, _ = first.communicate(timeout=30)
    assert first.returncode == 0 and "stopped" in out
    assert not pid_alive(redis_pid)
    again = serve(tmp_path, port)
    try:
        wait_up(base)
        res = requests.get(f"{base}/v1/games/{game['id']}")
        assert res.status_code == 200 and res.json()["status"] == "waiting"
    finally:
        again.send_signal(signal.SIGINT)
        again.communicate(timeout=30)

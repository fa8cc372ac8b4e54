"""Bodies that never arrive do not hold the API (issue #27.6): through gunicorn as
`marketfold serve` runs it, a body must arrive within BODY_TIMEOUT_S (408
`body_timeout`, the connection closed), and a caller may send only a few bodies at once
(429 `too_many_uploads` at once, per token and per address), while others are served."""

from __future__ import annotations

import json
import socket
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from tests.api.openapi_check import assert_matches
from tests.conftest import api_server

pytestmark = pytest.mark.slow
LIMITS = {
    "MARKETFOLD_BODY_TIMEOUT_S": "1.5",
    "MARKETFOLD_UPLOADS_PER_TOKEN": "3",
    "MARKETFOLD_UPLOADS_PER_ADDRESS": "6",
}


def start_post(port: int, path: str, token: str | None, length: int, first: bytes) -> socket.socket:
    """Send a POST's headers and the first bytes of a body of `length` bytes; return the
    open socket (the rest of the body is up to the caller)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    head = (
        f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\n{auth}\r\n"
    )
    sock.sendall(head.encode() + first)
    return sock


def answer(sock: socket.socket, timeout: float = 10) -> tuple[int, dict, float, bool]:
    """Read the answer: (status, problem body, seconds waited, whether the server then
    closed the connection)."""
    sock.settimeout(timeout)
    start, data = time.monotonic(), b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    took = time.monotonic() - start
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(
        next(
            ln.split(b":")[1]
            for ln in head.split(b"\r\n")
            if ln.lower().startswith(b"content-length")
        )
    )
    while len(body) < length:
        body += sock.recv(65536)
    sock.settimeout(3)
    try:
        closed = sock.recv(1) == b""
    except TimeoutError:
        closed = False
    sock.close()
    return int(head.split()[1]), json.loads(body), took, closed


def player(base: str, name: str) -> dict:
    return requests.post(f"{base}/v1/players", json={"name": name}, timeout=10).json()


def test_a_body_that_never_arrives_is_408_within_the_deadline(redis_url):
    with api_server(redis_url, processes=1, **LIMITS) as (base, port):
        ana = player(base, "ana")
        stalled = start_post(port, "/v1/games", ana["token"], 200, b'{"ruleset": ')
        status, problem, took, closed = answer(stalled)
        assert (status, problem["code"]) == (408, "body_timeout"), problem
        assert 1.0 < took < 4.0 and closed, (took, closed)
        assert_matches("Problem", problem)
        # a trickle (a byte every 0.3 s) is held to the same whole-body deadline
        trickle = start_post(port, "/v1/players", None, 400, b"{")
        began = time.monotonic()
        try:
            while time.monotonic() - began < 6:
                trickle.sendall(b" ")
                time.sleep(0.3)
        except OSError:
            pass  # the server answered and closed
        status, problem, _, _ = answer(trickle)
        assert (status, problem["code"]) == (408, "body_timeout")
        assert time.monotonic() - began < 5
        # the verify route has its own, longer deadline (BUNDLE_TIMEOUT_S)
        assert requests.post(f"{base}/v1/players", json={"name": "bo"}, timeout=5).ok


def test_a_caller_sends_only_a_few_bodies_at_once_and_others_are_served(redis_url):
    with api_server(redis_url, processes=1, **LIMITS) as (base, port):
        ana, bo = player(base, "ana"), player(base, "bo")
        held = [start_post(port, "/v1/games", ana["token"], 500, b"{") for _ in range(3)]
        time.sleep(0.3)
        extra = start_post(port, "/v1/games", ana["token"], 500, b"{")
        status, problem, took, closed = answer(extra)
        assert (status, problem["code"]) == (429, "too_many_uploads"), problem
        assert took < 1.0 and closed
        # another token from the same address is served
        res = requests.post(
            f"{base}/v1/games",
            json={"ruleset": "goblin-market", "players": 3},
            headers={"Authorization": f"Bearer {bo['token']}"},
            timeout=5,
        )
        assert res.status_code == 201, res.text
        # invented tokens gain nothing: the address holds at most 6 bodies at once
        fakes = [start_post(port, "/v1/players", f"fake{i}", 500, b"{") for i in range(3)]
        time.sleep(0.3)
        refused = start_post(port, "/v1/players", "fake-more", 500, b"{")
        assert answer(refused)[1]["code"] == "too_many_uploads"
        # once the slow bodies time out, the caller may send again
        for sock in held + fakes:
            assert answer(sock)[0] == 408
        res = requests.post(
            f"{base}/v1/games",
            json={"ruleset": "goblin-market", "players": 3},
            headers={"Authorization": f"Bearer {ana['token']}"},
            timeout=5,
        )
        assert res.status_code == 201, res.text


def test_bodies_count_only_while_they_arrive_not_while_they_are_served(redis_url):
    with api_server(redis_url, processes=1, **LIMITS) as (base, _):
        ana = player(base, "ana")
        auth = {"Authorization": f"Bearer {ana['token']}"}
        body = {"ruleset": "goblin-market", "players": 3}

        def create(_):
            return requests.post(f"{base}/v1/games", json=body, headers=auth, timeout=30)

        with ThreadPoolExecutor(12) as pool:  # four times the per-token cap, all at once
            answers = list(pool.map(create, range(24)))
        assert [a.status_code for a in answers] == [201] * 24, [
            a.text for a in answers if a.status_code != 201
        ][:2]

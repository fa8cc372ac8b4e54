"""Open event streams never starve the API: they hold no request thread, a caller may hold
only so many at once, and a client that goes away is noticed within a heartbeat."""

import socket
import time

import pytest
import redis
import requests

from tests.api.helpers import bearer
from tests.conftest import api_server

pytestmark = pytest.mark.slow
CAP = 4
BEAT = 3  # seconds between heartbeats: a closed client is noticed within one, not two


@pytest.fixture
def server(redis_url):
    """The API as `marketfold serve` runs it, with a small stream cap and 3 s heartbeats."""
    limits = {"MARKETFOLD_STREAM_LIMIT_ANON": str(CAP), "MARKETFOLD_STREAM_LIMIT_TOKEN": str(CAP)}
    with api_server(redis_url, MARKETFOLD_SSE_HEARTBEAT_S=str(BEAT), **limits) as (base, port):
        yield base, port


def open_stream(port: int, path: str, token: str | None = None) -> tuple[socket.socket, bytes]:
    """Open an SSE request on a raw socket; return it and the start of the answer."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: t\r\n{auth}\r\n".encode())
    return s, s.recv(2048)


def a_game(base: str) -> tuple[str, list[dict]]:
    people = [requests.post(base + "/v1/players", json={"name": f"s{i}"}).json() for i in range(3)]
    gid = requests.post(
        base + "/v1/games",
        json={"ruleset": "goblin-market", "players": 3},
        headers=bearer(people[0]),
    ).json()["id"]
    return gid, people


def test_many_open_streams_leave_every_other_call_fast(server):
    base, port = server
    gid, people = a_game(base)
    tokens = [requests.post(base + "/v1/players", json={"name": f"w{i}"}).json() for i in range(15)]
    held = []
    for t in tokens:  # 60 streams: far more than the old 2 x 8 request threads
        for path in [f"/v1/games/{gid}/events/stream"] * 3 + ["/v1/players/me/feed"]:
            s, head = open_stream(port, path, t["token"])
            assert head.startswith(b"HTTP/1.1 200"), head
            held.append(s)
    slowest = 0.0
    for p in people:  # the game is created, joined and played while the streams wait
        started = time.monotonic()
        assert requests.post(f"{base}/v1/games/{gid}/join", headers=bearer(p), timeout=5).ok
        slowest = max(slowest, time.monotonic() - started)
    for _ in range(20):
        started = time.monotonic()
        assert requests.get(base + "/healthz", timeout=5).status_code == 200
        slowest = max(slowest, time.monotonic() - started)
    # starved, these calls waited out their timeouts; how fast they are:
    # bench/streams/open_streams.py
    assert slowest < 5.0, f"a call took {slowest:.2f} s with {len(held)} streams open"
    head = held[0].recv(65536)  # the streams saw the joins as they happened
    while b"game.Started" not in head:
        head += held[0].recv(65536)
    for s in held:
        s.close()


def test_a_caller_past_its_stream_cap_gets_429_until_one_closes(server, redis_url):
    base, port = server
    gid, people = a_game(base)
    token = people[0]["token"]
    held = [open_stream(port, f"/v1/games/{gid}/events/stream", token) for _ in range(CAP)]
    assert all(head.startswith(b"HTTP/1.1 200") for _, head in held)
    res = requests.get(f"{base}/v1/games/{gid}/events/stream", headers=bearer(people[0]))
    assert res.status_code == 429
    assert res.headers["Content-Type"] == "application/problem+json"
    assert res.json()["code"] == "too_many_streams" and int(res.headers["Retry-After"]) >= 1
    # the cap is the player's, whichever of its tokens opens the stream (#49.7: a player
    # mints tokens freely, so a cap per token would be a cap of 20 x 20)
    second = requests.post(f"{base}/v1/players/me/tokens", headers=bearer(people[0])).json()
    res = requests.get(f"{base}/v1/players/me/feed", headers=bearer(second))
    assert res.status_code == 429 and res.json()["code"] == "too_many_streams"
    anon = [open_stream(port, f"/v1/games/{gid}/events/stream") for _ in range(CAP + 1)]
    assert [h[:12] for _, h in anon].count(b"HTTP/1.1 429") == 1  # addresses count apart
    other = open_stream(port, "/v1/players/me/feed", people[1]["token"])  # another token
    assert other[1].startswith(b"HTTP/1.1 200")
    held[0][0].close()
    r = redis.Redis.from_url(redis_url)
    ends = time.monotonic() + 3 * BEAT  # noticed at the next heartbeat
    while time.monotonic() < ends:
        again = requests.get(
            f"{base}/v1/games/{gid}/events/stream", headers=bearer(people[0]), stream=True
        )
        if again.status_code == 200:
            again.close()
            break
        time.sleep(0.3)
    else:
        raise AssertionError("a closed stream still counted against its caller")
    assert r.exists(f"mf:streams:player:{people[0]['id']}")


def test_a_client_that_goes_away_is_noticed_within_a_heartbeat(server, redis_url):
    base, port = server
    gid, people = a_game(base)
    r = redis.Redis.from_url(redis_url)
    slots = f"mf:streams:player:{people[0]['id']}"
    s, head = open_stream(port, f"/v1/games/{gid}/events/stream", people[0]["token"])
    assert head.startswith(b"HTTP/1.1 200") and r.zcard(slots) == 1
    s.close()
    closed = time.monotonic()
    while r.zcard(slots):
        # within one heartbeat (a failed write would only tell at the second)
        assert time.monotonic() - closed < 1.5 * BEAT, "not noticed within a heartbeat"
        time.sleep(0.05)

"""The benchmarks' one-call client (bench/moves/one_call.py) plays a whole game against the API
as served, one POST per move: each seat acts from its event stream's `owes` frames and
its answers' `actions`, and never asks GET /legal."""

from __future__ import annotations

import pytest
import requests

from bench.common import gunicorn, stop
from bench.moves.actions import seated_game
from bench.moves.one_call import play_one_call
from cli.embedded import free_port
from tests.support.waiting import wait_up


class Counting(requests.Session):
    """A session that remembers every request it sent (method and path)."""

    def __init__(self):
        super().__init__()
        self.sent: list[tuple[str, str]] = []

    def request(self, method, url, *args, **kwargs):
        self.sent.append((method, url.split("/v1", 1)[-1]))
        return super().request(method, url, *args, **kwargs)


@pytest.mark.slow
def test_the_one_call_client_plays_a_game_to_the_end_with_one_post_per_move(redis_url):
    port = free_port()
    proc = gunicorn("cli.wsgi:app", port, redis_url)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_up(base + "/healthz")
        gid, seats = seated_game(base, requests.Session(), 3, "one")
        session, latencies = Counting(), []
        made = play_one_call(base, session, gid, seats, 7, latencies)
        game = requests.get(f"{base}/v1/games/{gid}", timeout=5).json()
        assert game["status"] == "finished"
        assert made > 20 and len(latencies) == made
        posts = [path for method, path in session.sent if method == "POST"]
        assert len(posts) == made  # one call per move
        assert all(path == f"/games/{gid}/actions" for path in posts)
        assert [m for m, _ in session.sent].count("GET") == 1  # the game, once, at the start
    finally:
        stop([proc])

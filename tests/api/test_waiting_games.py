"""Waiting games are capped per player and expire (issue #27.6), through gunicorn as
`marketfold serve` runs it and a real worker: a player past WAITING_GAMES_PER_PLAYER gets
409 `too_many_waiting_games`; a game still waiting WAITING_EXPIRE_S after its creation is
cancelled by the worker and listed nowhere (lobby, the player's games); its log verifies."""

from __future__ import annotations

import time

import pytest
import requests

from events import audit, keys
from events.recorder import RedisRecorder
from events.repository import GameRepository
from tests.api.openapi_check import assert_matches
from tests.conftest import api_server

pytestmark = pytest.mark.slow
SETTINGS = {"MARKETFOLD_WAITING_GAMES_PER_PLAYER": "2", "MARKETFOLD_WAITING_EXPIRE_S": "3"}


class Api:
    def __init__(self, base: str):
        self.base, self.s = base, requests.Session()

    def player(self, name: str) -> dict:
        return self.s.post(f"{self.base}/v1/players", json={"name": name}, timeout=10).json()

    def call(self, method: str, path: str, who: dict | None = None, **kw) -> requests.Response:
        headers = {"Authorization": f"Bearer {who['token']}"} if who else {}
        return self.s.request(method, self.base + path, headers=headers, timeout=10, **kw)

    def create(self, who: dict, players: int = 3) -> requests.Response:
        body = {"ruleset": "goblin-market", "players": players}
        return self.call("POST", "/v1/games", who, json=body)

    def listed(self, path: str, who: dict | None = None) -> set[str]:
        return {g["id"] for g in self.call("GET", path, who).json()["games"]}


def refused(res: requests.Response) -> None:
    assert res.status_code == 409, res.text
    assert res.json()["code"] == "too_many_waiting_games"
    assert_matches("Problem", res.json())


def test_a_player_keeps_only_so_many_waiting_games(redis_url):
    with api_server(redis_url, **{**SETTINGS, "MARKETFOLD_WAITING_EXPIRE_S": "3600"}) as (base, _):
        api = Api(base)
        ana, bo, cy, di = (api.player(n) for n in ("ana", "bo", "cy", "di"))
        first = api.create(ana).json()["id"]
        second = api.create(ana).json()["id"]
        refused(api.create(ana))  # two waiting games created: no third
        other = api.create(bo).json()["id"]
        refused(api.call("POST", f"/v1/games/{other}/join", ana))  # nor a seat in a third
        assert api.call("POST", f"/v1/games/{first}/join", ana).status_code == 200  # its own
        # a game that starts stops counting
        for who in (bo, cy):
            assert api.call("POST", f"/v1/games/{first}/join", who).status_code == 200
        assert api.call("GET", f"/v1/games/{first}").json()["status"] == "active"
        third = api.create(ana)
        assert third.status_code == 201, third.text
        refused(api.create(ana))
        # a cancelled game stops counting too
        assert api.call("DELETE", f"/v1/games/{second}", ana).status_code == 204
        assert api.call("POST", f"/v1/games/{other}/join", ana).status_code == 200
        refused(api.create(ana))
        assert api.create(di).status_code == 201  # others are not limited by ana's games


def test_a_game_nobody_fills_expires_and_is_listed_nowhere(redis_url, worker_process, r):
    worker_process(**SETTINGS)
    with api_server(redis_url, **SETTINGS) as (base, _):
        api = Api(base)
        ana, bo, cy = (api.player(n) for n in ("ana", "bo", "cy"))
        lonely = api.create(ana).json()["id"]
        assert api.call("POST", f"/v1/games/{lonely}/join", ana).status_code == 200
        full = api.create(bo).json()["id"]
        for who in (ana, bo, cy):
            assert api.call("POST", f"/v1/games/{full}/join", who).status_code == 200
        assert lonely in api.listed("/v1/games?status=waiting")
        assert lonely in api.listed("/v1/players/me/games", ana)
        time.sleep(3.2)
        # from its expiry on, listed nowhere (even before the worker's sweep reaches it)
        for path in ("/v1/games?status=waiting", "/v1/games", "/v1/games?ruleset=goblin-market"):
            assert lonely not in api.listed(path), path
        assert lonely not in api.listed("/v1/players/me/games", ana)
        assert lonely not in api.listed("/v1/players/me/games?status=waiting", ana)
        deadline = time.monotonic() + 10
        while api.call("GET", f"/v1/games/{lonely}").json()["status"] != "cancelled":
            assert time.monotonic() < deadline, "the worker did not cancel the game"
            time.sleep(0.2)
        last = api.call("GET", f"/v1/games/{lonely}/events").json()["events"][-1]
        assert last["type"] == "game.Cancelled" and last["data"]["reason"] == "expired"
        res = api.call("POST", f"/v1/games/{lonely}/join", bo)
        assert (res.status_code, res.json()["code"]) == (409, "game_not_waiting")
        assert api.create(ana).status_code == 201  # it no longer counts
        # the expiry is a command like any other: an audit decides it again
        log = GameRepository(RedisRecorder(r)).read(lonely)
        seed = r.get(keys.game_seed(lonely)).hex()
        bundle = {"format": audit.FORMAT, "game": {"id": lonely}, "events": log, "seed": seed}
        chain, draws, replay, _, bound, _ = audit.verify(bundle).checks
        assert chain.ok and draws.ok and replay.ok and bound.ok, replay.detail
        assert log[-1]["command"] == {"type": "lapse"}
        # a game that started does not expire
        assert api.call("GET", f"/v1/games/{full}").json()["status"] == "active"
        assert full in api.listed("/v1/players/me/games", ana)

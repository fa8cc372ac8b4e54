"""Cluster mode: the API and a worker on a real 3-master Valkey Cluster (queues on their
own Valkey) play a game of every ruleset, deadlines and sealed phases included; then one
master dies (no replicas): its games answer 503 problem+json at once, the others play
on, and everything comes back with it."""

from __future__ import annotations

import random
import subprocess
import sys
import time

import pytest
import redis
import requests

from cli.embedded import EmbeddedRedis, free_port
from events import keys
from games import schemas
from service.players import hash_token
from tests.conftest import ROOT, _env, api_server, kill_group
from tests.support.cluster import EmbeddedCluster

pytestmark = pytest.mark.slow
SEATS = {"goblin-market": 3, "sorcerous-futures": 3, "gobcon": 2, "black-market": 3}


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    """A 3-master cluster, a standalone Valkey for the queues, the API and one worker."""
    root = tmp_path_factory.mktemp("cluster")
    cluster = EmbeddedCluster(root).start()
    queues = EmbeddedRedis(root / "queues", port=free_port(), appendfsync="everysec").start()
    env = {"RQ_REDIS_URL": queues.url}
    worker = subprocess.Popen(
        [sys.executable, "-m", "cli", "worker"],
        env={**_env(cluster.url), **env},
        cwd=ROOT,
        start_new_session=True,
    )
    try:
        with api_server(cluster.url, **env) as (base, _):
            yield cluster, base
    finally:
        kill_group(worker)
        queues.stop()
        cluster.stop()


def bearer(player):
    return {"Authorization": f"Bearer {player['token']}"}


def register(base, n):
    return [requests.post(f"{base}/v1/players", json={"name": f"c{i}"}).json() for i in range(n)]


def table(base, players, ruleset, timeout_s=None):
    """Create a game for `players`, seat them, and return (game id, seat -> player)."""
    body = {"ruleset": ruleset, "players": len(players), "decision_timeout_s": timeout_s}
    res = requests.post(f"{base}/v1/games", json=body, headers=bearer(players[0]))
    assert res.status_code == 201, res.text
    gid = res.json()["id"]
    for p in players:
        assert requests.post(f"{base}/v1/games/{gid}/join", headers=bearer(p)).ok
    seats = {
        requests.get(f"{base}/v1/games/{gid}", headers=bearer(p)).json()["you"]: p for p in players
    }
    return gid, seats


def act(base, gid, seats, rnd):
    """One random legal action by someone who owes one; False while nobody owes
    (a worker is resolving a sealed phase)."""
    game = requests.get(f"{base}/v1/games/{gid}").json()
    if not game["owed"]:
        return False
    seat = rnd.choice(game["owed"])["seat"]
    legal = requests.get(f"{base}/v1/games/{gid}/legal", headers=bearer(seats[seat])).json()
    action = schemas.random_action(legal["actions"], rnd)
    res = requests.post(f"{base}/v1/games/{gid}/actions", json=action, headers=bearer(seats[seat]))
    assert res.status_code in (201, 202, 409), res.text  # 409: a worker closed the phase first
    return True


def play_to_end(base, gid, seats, rnd, timeout=120.0):
    end = time.monotonic() + timeout
    while requests.get(f"{base}/v1/games/{gid}").json()["status"] == "active":
        assert time.monotonic() < end, "the game did not finish"
        if not act(base, gid, seats, rnd):
            time.sleep(0.02)
    return requests.get(f"{base}/v1/games/{gid}/events").json()["events"]


def test_every_ruleset_plays_to_the_end_on_a_cluster_with_deadlines_and_sealed_phases(stack):
    cluster, base = stack
    rnd = random.Random(21)
    slots = set()
    for ruleset, n in SEATS.items():
        gid, seats = table(base, register(base, n), ruleset, timeout_s=600)
        slots.add(cluster.node_of(keys.game_events(gid)).port)
        log = play_to_end(base, gid, seats, rnd)
        assert log[-1]["type"] == "game.Ended"
        if ruleset == "sorcerous-futures":  # sealed bids, revealed by the worker
            assert any(e["type"] == "sorcerous-futures.SealedBidsRevealed" for e in log)
        verify = requests.get(f"{base}/v1/games/{gid}/export").json()
        assert requests.post(f"{base}/v1/verify", json=verify).json()["ok"] is True
    # a missed deadline is applied by the worker's sweep of the cluster's deadline index
    gid, _ = table(base, register(base, 3), "goblin-market", timeout_s=1)
    end = time.monotonic() + 30
    while not any(
        e["type"] == "game.DecisionTimedOut"
        for e in requests.get(f"{base}/v1/games/{gid}/events").json()["events"]
    ):
        assert time.monotonic() < end, "the deadline was not applied"
        time.sleep(0.1)


def _keys_of(player):
    pid = player["id"]
    return [
        keys.token(hash_token(player["token"])),
        keys.player(pid),
        keys.player_games(pid),
        keys.player_feed(pid),
    ]


def test_a_dead_master_makes_its_games_answer_503_and_they_recover_when_it_returns(stack):
    cluster, base = stack
    rnd = random.Random(5)
    globals_ = {cluster.node_of(k).port for k in (keys.deadlines(), keys.games())}
    victim = next(n for n in cluster.nodes if n.port not in globals_)
    players = [
        p for p in register(base, 60) if all(cluster.node_of(k) is not victim for k in _keys_of(p))
    ][:3]  # about one player in five has every key elsewhere
    assert len(players) == 3, "not enough players with every key off the victim"
    lost = kept = None
    while lost is None or kept is None:
        gid, seats = table(base, players[:3], "goblin-market", timeout_s=600)
        if cluster.node_of(keys.game_events(gid)) is victim:
            lost = lost or (gid, seats)
        elif kept is None:
            kept = (gid, seats)
    lost_version = requests.get(f"{base}/v1/games/{lost[0]}").json()["version"]

    victim.kill()
    res = requests.get(f"{base}/v1/games/{lost[0]}", timeout=10)  # answered, not hung
    assert res.status_code == 503
    assert res.headers["Content-Type"] == "application/problem+json"
    assert res.json()["code"] == "store_unavailable"
    res = requests.post(
        f"{base}/v1/games/{lost[0]}/actions",
        json={"type": "pass"},
        headers=bearer(next(iter(lost[1].values()))),
        timeout=10,
    )
    assert res.status_code == 503 and res.json()["code"] == "store_unavailable"
    for _ in range(5):  # the other masters' games play on
        assert act(base, kept[0], kept[1], rnd)

    cluster.restart(victim)
    end = time.monotonic() + 20
    while (res := requests.get(f"{base}/v1/games/{lost[0]}")).status_code != 200:
        assert time.monotonic() < end, res.text
        time.sleep(0.1)
    assert res.json()["version"] == lost_version  # nothing lost (AOF), nothing half-written
    assert act(base, lost[0], lost[1], rnd)
    assert requests.get(f"{base}/v1/games/{lost[0]}").json()["version"] > lost_version
    assert redis.Redis(port=victim.port).ping()

"""APPEND_REPLICAS: an action is answered 2xx only once a replica has it (WAIT, or WAITAOF
for the replica's AOF), on a real Valkey master and replica; with the replica stalled
(SIGSTOP) the answer is 503 `not_replicated`, the write kept on the master, and a retry
with the same Idempotency-Key is answered with its result once the replica has it,
never applied twice (docs/reliability.md, "Replicas")."""

from __future__ import annotations

import random
import threading
import time

import pytest
import redis
from redis.cluster import RedisCluster

from cli.compose import create_app
from events import keys, round_trip
from events.replication import NotReplicated
from service import deadline_commands
from tests.api.helpers import bearer, by_seat, new_game, new_players, random_action
from tests.conftest import TEST_CONFIG
from tests.support.cluster import EmbeddedCluster
from tests.workers.helpers import bid, reveals, sealed_table

TIMEOUT_MS = 400


def replicated_app(master, **settings):
    cfg = {
        **TEST_CONFIG,
        "REDIS_URL": master.url,
        "RQ_REDIS_URL": master.url,
        "APPEND_REPLICAS": 1,
        "APPEND_REPLICA_TIMEOUT_MS": TIMEOUT_MS,
        **settings,
    }
    return create_app(cfg)


def started(client, ruleset="gobcon"):
    """A 2-player game, started; return (id, seat -> player, the seat that owes)."""
    players = new_players(client, 2)
    gid = new_game(client, players, ruleset)
    seats = by_seat(client, gid, players)
    return gid, seats, client.get(f"/v1/games/{gid}").get_json()["owed"][0]["seat"]


def an_action(client, gid, player):
    legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(player)).get_json()
    return random_action(random.Random(7), legal["actions"])


def length(server, gid):
    return redis.Redis.from_url(server.url).xlen(keys.game_events(gid))


def post(client, gid, player, action, key=None):
    headers = {**bearer(player), **({"Idempotency-Key": key} if key else {})}
    return client.post(f"/v1/games/{gid}/actions", json=action, headers=headers)


def test_an_action_is_answered_once_the_replica_has_it(replicated):
    master, replica = replicated
    client = replicated_app(master, APPEND_REPLICA_TIMEOUT_MS=1500).test_client()
    gid, seats, seat = started(client)
    action = an_action(client, gid, seats[seat])
    replica.pause()  # the replica lags: the answer must wait for it
    threading.Timer(0.3, replica.resume).start()
    began = time.monotonic()
    res = post(client, gid, seats[seat], action, "k1")
    took = time.monotonic() - began
    on_replica = length(replica, gid)  # read as soon as the answer is in
    assert res.status_code in (201, 202), res.get_json()
    assert took >= 0.25, f"answered after {took:.3f} s while the replica was stopped"
    assert on_replica == length(master, gid) == res.get_json()["version"]


def test_a_stalled_replica_gets_503_not_replicated_and_a_retry_answers_once(replicated):
    master, replica = replicated
    client = replicated_app(master).test_client()
    gid, seats, seat = started(client)
    before = length(master, gid)
    action = an_action(client, gid, seats[seat])
    replica.pause()
    began = time.monotonic()
    res = post(client, gid, seats[seat], action, "k2")
    took = time.monotonic() - began
    body = res.get_json()
    assert res.status_code == 503, body
    assert res.headers["Content-Type"] == "application/problem+json"
    assert res.headers["Retry-After"] == "1"
    assert body["code"] == "not_replicated" and body["idempotency_key"] == "k2"
    assert TIMEOUT_MS / 1000 <= took < TIMEOUT_MS / 1000 + 1.5
    written = length(master, gid)
    assert written > before  # recorded on the master, not undone
    # a retry while the replica is still stopped, through another app (its own connections:
    # a WAIT there covers the first write only because the retry writes its result again)
    other = replicated_app(master).test_client()
    again = post(other, gid, seats[seat], action, "k2")
    assert again.status_code == 503 and again.get_json()["code"] == "not_replicated"
    assert length(master, gid) == written
    replica.resume()
    replica.in_sync()
    assert length(replica, gid) == written
    done = post(client, gid, seats[seat], action, "k2")
    assert done.status_code in (201, 202), done.get_json()
    assert done.get_json()["version"] == written == length(master, gid)  # applied once
    assert [e["seq"] for e in done.get_json()["events"]] == list(range(before + 1, written + 1))


def test_an_action_without_a_key_is_answered_with_the_key_to_retry(replicated):
    master, replica = replicated
    client = replicated_app(master).test_client()
    gid, seats, seat = started(client)
    action = an_action(client, gid, seats[seat])
    replica.pause()
    res = post(client, gid, seats[seat], action)
    assert res.status_code == 503, res.get_json()
    key = res.get_json()["idempotency_key"]
    assert key.startswith("auto_")
    written = length(master, gid)
    replica.resume()
    done = post(client, gid, seats[seat], action, key)
    assert done.status_code in (201, 202), done.get_json()
    assert done.get_json()["version"] == written == length(master, gid)


def test_replica_aof_waits_for_its_fsync(replicated):
    master, replica = replicated  # the replica fsyncs every write (appendfsync always)
    client = replicated_app(master, APPEND_REPLICA_AOF=True).test_client()
    gid, seats, seat = started(client)
    res = post(client, gid, seats[seat], an_action(client, gid, seats[seat]), "k3")
    assert res.status_code in (201, 202), res.get_json()
    redis.Redis.from_url(replica.url).config_set("appendonly", "no")  # nothing to fsync
    try:
        # set up through an app that waits for no replica, acted on through the AOF one
        gid2, seats2, seat2 = started(replicated_app(master, APPEND_REPLICAS=0).test_client())
        res = post(client, gid2, seats2[seat2], an_action(client, gid2, seats2[seat2]), "k4")
        assert res.status_code == 503 and res.get_json()["code"] == "not_replicated"
    finally:
        redis.Redis.from_url(replica.url).config_set("appendonly", "yes")


def test_without_append_replicas_nothing_waits(replicated):
    master, replica = replicated
    client = replicated_app(master, APPEND_REPLICAS=0).test_client()
    gid, seats, seat = started(client)
    action = an_action(client, gid, seats[seat])
    replica.pause()
    began = time.monotonic()
    res = post(client, gid, seats[seat], action, "k5")
    assert res.status_code in (201, 202), res.get_json()
    assert time.monotonic() - began < TIMEOUT_MS / 1000


def test_a_workers_reveal_waits_too(replicated):
    """A worker's append (here a closed auction's reveal) raises NotReplicated when the
    replica does not confirm it (RQ then runs the job again), and is appended once."""
    master, replica = replicated
    app = replicated_app(master)
    client, deps = app.test_client(), app.extensions["marketfold"]
    gid, seats, game = sealed_table(client)
    for n, owed in enumerate(game["owed"]):
        assert bid(client, gid, seats, owed["seat"], n + 1).status_code == 202
    rec = deps.store.load(gid).record
    phase = rec.game.ready(rec.state)
    assert phase is not None
    replica.pause()
    with pytest.raises(NotReplicated):
        deadline_commands.resolve(deps, gid, phase)
    written = length(master, gid)
    assert written > rec.version and len(reveals(client, gid)) == 1
    replica.resume()
    assert deadline_commands.resolve(deps, gid, phase) == "noop"  # the rerun: answered, once
    assert length(master, gid) == written == length(replica, gid)
    assert len(reveals(client, gid)) == 1


@pytest.fixture(scope="module")
def replicated_cluster(tmp_path_factory):
    """A 3-master Valkey Cluster with a replica per master (tests/support/cluster.py)."""
    cluster = EmbeddedCluster(tmp_path_factory.mktemp("replicated-cluster"), replicas=1)
    try:
        yield cluster.start()
    finally:
        cluster.stop()


def on_node(node, gid):
    """The game's log length as `node` (master or replica) holds it."""
    conn = redis.Redis(port=node.port)
    return round_trip.call(conn, [("READONLY",), ("XLEN", keys.game_events(gid))])[1]


def owed_move(client, gid, seats):
    seat = client.get(f"/v1/games/{gid}").get_json()["owed"][0]["seat"]
    return seats[seat], an_action(client, gid, seats[seat])


@pytest.mark.slow
def test_on_a_cluster_an_append_waits_for_its_masters_replica(replicated_cluster, redis_url):
    cluster = replicated_cluster
    app = replicated_app(cluster, REDIS_URL=cluster.url, RQ_REDIS_URL=redis_url)
    client = app.test_client()
    gid, seats, _ = started(client)
    master = cluster.node_of(keys.game_events(gid))
    replica = cluster.replicas_of(master)[0]
    player, action = owed_move(client, gid, seats)
    res = post(client, gid, player, action, "c1")
    assert res.status_code in (201, 202), res.get_json()
    assert on_node(replica, gid) == res.get_json()["version"]  # already there

    player, action = owed_move(client, gid, seats)
    replica.pause()
    try:
        res = post(client, gid, player, action, "c2")
        assert res.status_code == 503 and res.get_json()["code"] == "not_replicated"
    finally:
        replica.resume()
    done = post(client, gid, player, action, "c2")
    assert done.status_code in (201, 202), done.get_json()
    assert done.get_json()["version"] == on_node(master, gid) == on_node(replica, gid)

    # the replica takes over (a manual failover): the client meets MOVED and follows it,
    # and the append then waits for the former master, now the replica
    redis.Redis(port=replica.port).execute_command("CLUSTER", "FAILOVER")
    deadline = time.monotonic() + 20
    while redis.Redis(port=replica.port).execute_command("ROLE")[0] != b"master":
        assert time.monotonic() < deadline, "the replica did not take over"
        time.sleep(0.05)
    player, action = owed_move(client, gid, seats)
    res = post(client, gid, player, action, "c3")
    assert res.status_code in (201, 202), res.get_json()
    assert res.get_json()["version"] == on_node(replica, gid) == on_node(master, gid)


def master_and_replica(cluster, key):
    """The node serving `key`'s slot now, and its replica (roles change in a failover)."""
    port = RedisCluster(host="127.0.0.1", port=cluster.nodes[0].port).get_node_from_key(key).port
    nodes = [*cluster.nodes, *cluster.replicas]
    master = next(n for n in nodes if n.port == port)
    roles = {n.port: redis.Redis(port=n.port).execute_command("ROLE") for n in nodes}
    replica = next(n for n in nodes if roles[n.port][0] == b"slave" and roles[n.port][2] == port)
    return master, replica


@pytest.mark.slow
def test_on_a_cluster_the_follow_up_writes_wait_for_their_masters_replicas(
    replicated_cluster, redis_url
):
    """An action's deadline lives in `mf:deadlines`, on another master than the game: its
    write is waited for too, so a stalled replica there is 503 `not_replicated`."""
    cluster = replicated_cluster
    app = replicated_app(cluster, REDIS_URL=cluster.url, RQ_REDIS_URL=redis_url)
    client = app.test_client()
    index, index_replica = master_and_replica(cluster, keys.deadlines())
    while True:  # a game whose own master is another one
        players = new_players(client, 2)
        gid = new_game(client, players, "gobcon", decision_timeout_s=600)
        if master_and_replica(cluster, keys.game_events(gid))[0] is not index:
            break
    seats = by_seat(client, gid, players)
    player, action = owed_move(client, gid, seats)
    index_replica.pause()
    try:
        res = post(client, gid, player, action, "f1")
    finally:
        index_replica.resume()
    assert res.status_code == 503 and res.get_json()["code"] == "not_replicated", res.get_json()
    done = post(client, gid, player, action, "f1")
    assert done.status_code in (201, 202), done.get_json()

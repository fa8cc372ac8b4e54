"""events.round_trip packs commands itself (hiredis, one call a command): the bytes on the
wire must be exactly those redis-py would send, and what redis-py refuses stays refused."""

import gc

import pytest
import redis

from events import round_trip
from service import bootstrap

COMMANDS = [
    ("EVALSHA", "a" * 40, 2, "game:{g_1}:events", b"token:\x00\xff", 7, -3, 2**70, 1.5),
    ("GET", "mf:token:é✓"),
    ("SCRIPT LOAD", "return 1"),  # a two-word name: sent as two words
    ("XADD", "s", "*", "f", bytearray(b"raw"), "g", memoryview(b"view")),
    ("EVALSHA", "b" * 40, 0, *range(200), "x" * 7000),  # past redis-py's buffer cutoff
]


@pytest.mark.parametrize("commands", [COMMANDS[:2], COMMANDS[2:3], COMMANDS[3:], COMMANDS])
def test_commands_are_packed_as_redis_py_packs_them(commands):
    conn = redis.Connection()  # never connected: packing needs no server
    assert b"".join(round_trip.packed(conn, commands)) == b"".join(conn.pack_commands(commands))


def test_an_argument_redis_py_refuses_is_refused():
    with pytest.raises(redis.DataError):
        round_trip.packed(redis.Connection(), [("SET", "k", None)])


def test_a_kept_connection_the_server_closed_is_connected_again(redis_url):
    client, other = redis.Redis.from_url(redis_url), redis.Redis.from_url(redis_url)
    try:
        assert round_trip.call(client, [("SET", "k", "1"), ("GET", "k")]) == [b"OK", b"1"]
        kept = client.connection_pool._created_connections
        other.client_kill_filter(_type="normal", skipme=True)  # as a restart would
        assert round_trip.call(client, [("GET", "k")]) == [b"1"]
        assert client.connection_pool._created_connections == kept  # the same one, again
    finally:
        client.close()
        other.close()


def test_a_connection_is_kept_for_the_next_round_trip_and_not_lent_twice(redis_url):
    client = redis.Redis.from_url(redis_url)
    try:
        round_trip.call(client, [("PING",)])
        first = round_trip._idle(client.connection_pool)[-1]
        round_trip.call(client, [("PING",)])
        assert round_trip._idle(client.connection_pool) == [first]
    finally:
        client.close()


def test_kept_connections_go_with_their_client(redis_url):
    """A process making many clients (tests, a rebuilt app) does not hoard connections."""
    watcher = redis.Redis.from_url(redis_url)
    try:
        before = watcher.info("clients")["connected_clients"]
        for _ in range(10):
            client = bootstrap.client(redis_url, max_connections=8)  # as every app makes
            round_trip.call(client, [("PING",)])
            del client
        gc.collect()
        assert watcher.info("clients")["connected_clients"] <= before
    finally:
        watcher.close()

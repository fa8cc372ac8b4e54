"""Commands sent to one Redis in one write, their replies read in one go.

For the calls every request makes (the limiter's token + count + load, the append), in
place of redis-py's pipeline and script objects: their retry wrapper, command stack and
reply callbacks cost more CPU than the round trip itself, for replies the callers read
raw. A reply that is an error stays in its place as the exception; a broken connection
is dropped and raises (no retry: a write is never sent twice).

The commands are packed by hiredis in one call each (the bytes redis-py's own hiredis
packer sends, without its pass over every argument in Python: an append has dozens),
and by redis-py's packer when hiredis is missing or refuses an argument.

A connection is borrowed from the client's pool once and then kept, on the pool (so it
goes with it), for the next round trip (up to KEPT idle ones per pool and process): the
pool's lending and taking back (its queue and lock, its counters, its process check)
cost 7-10 µs a round trip.
What the pool checks before it lends one, this checks too: a kept connection with data
waiting, or closed by the server, is dropped and connected again on its next send; one
that failed mid-call is disconnected; none crosses a fork.
"""

from __future__ import annotations

import os
from typing import Any

import redis

KEPT = 8  # idle connections kept per pool and process
ATTRIBUTE = "_marketfold_kept"  # on the pool: (pid, idle connections), gone with the pool

try:
    from hiredis import pack_command
    from redis.connection import HiredisRespSerializer
except ImportError:  # pragma: no cover - hiredis is a dependency
    pack_command = HiredisRespSerializer = None


def packed(conn: Any, commands: list[tuple[Any, ...]]) -> list[bytes]:
    """Return `commands` in the wire format `conn` would send them in."""
    if HiredisRespSerializer is not None and type(getattr(conn, "_command_packer", None)) is (
        HiredisRespSerializer
    ):
        try:  # plain arguments (str, bytes, int, float) only, in tuples
            if not any(isinstance(c[0], str) and " " in c[0] for c in commands):
                return [b"".join([pack_command(c) for c in commands])]
        except TypeError:
            pass  # redis-py's packer turns what it can, and raises DataError for the rest
    return conn.pack_commands(commands)


def call(client: redis.Redis, commands: list[tuple[Any, ...]]) -> list[Any]:
    """Send `commands` on one of `client`'s connections; return their replies."""
    pool = client.connection_pool
    idle = _idle(pool)
    conn = _ready(idle.pop()) if idle else pool.get_connection()
    try:
        conn.send_packed_command(packed(conn, commands))
        replies: list[Any] = []
        for _ in commands:
            try:
                replies.append(conn.read_response())
            except redis.ResponseError as e:
                replies.append(e)
    except BaseException:
        conn.disconnect()
        raise
    finally:
        if len(idle) < KEPT:
            idle.append(conn)
        else:
            pool.release(conn)
    return replies


def _idle(pool: Any) -> list[Any]:
    """The connections of `pool` kept idle here by this process (a fork starts afresh:
    its parent's sockets are not its own)."""
    kept = getattr(pool, ATTRIBUTE, None)
    pid = os.getpid()
    if kept is None or kept[0] != pid:
        kept = (pid, [])
        setattr(pool, ATTRIBUTE, kept)
    return kept[1]


def _ready(conn: Any) -> Any:
    """Return a kept connection ready to send: as the pool does before lending one, a
    connection with data waiting or closed by the server is dropped (and connected
    again by its next send)."""
    try:
        if not conn.can_read():
            return conn
    except redis.ConnectionError:
        pass
    conn.disconnect()
    return conn


def script(client: redis.Redis, registered: Any, keys: list[Any], args: list[Any]) -> Any:
    """Run a registered script (redis-py's `register_script`) by its digest in one round
    trip; the first call after a restart or SCRIPT FLUSH goes through redis-py, which
    loads it."""
    (reply,) = call(client, [("EVALSHA", registered.sha, len(keys), *keys, *args)])
    if isinstance(reply, redis.exceptions.NoScriptError):
        return registered(keys=keys, args=args)
    if isinstance(reply, Exception):
        raise reply
    return reply

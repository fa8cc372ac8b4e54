"""Commands sent to one Redis in one write, their replies read in one go.

For the calls every request makes (the limiter's token + count + load, the append), in
place of redis-py's pipeline and script objects: their retry wrapper, command stack and
reply callbacks cost more CPU than the round trip itself, for replies the callers read
raw. A reply that is an error stays in its place as the exception; a broken connection
is dropped and raises (no retry: a write is never sent twice).

The commands are packed by hiredis in one call each (the bytes redis-py's own hiredis
packer sends, without its pass over every argument in Python: an append has dozens),
and by redis-py's packer when hiredis is missing or refuses an argument.
"""

from __future__ import annotations

from typing import Any

import redis

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
    """Send `commands` on one of `client`'s pooled connections; return their replies."""
    pool = client.connection_pool
    conn = pool.get_connection()
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
        pool.release(conn)
    return replies


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

"""Commands sent to one Redis in one write, their replies read in one go.

For the calls every request makes (the limiter's token + count + load, the append), in
place of redis-py's pipeline and script objects: their retry wrapper, command stack and
reply callbacks cost more CPU than the round trip itself, for replies the callers read
raw. A reply that is an error stays in its place as the exception; a broken connection
is dropped and raises (no retry: a write is never sent twice).
"""

from __future__ import annotations

from typing import Any

import redis


def call(client: redis.Redis, commands: list[tuple[Any, ...]]) -> list[Any]:
    """Send `commands` on one of `client`'s pooled connections; return their replies."""
    pool = client.connection_pool
    conn = pool.get_connection()
    try:
        conn.send_packed_command(conn.pack_commands(commands))
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

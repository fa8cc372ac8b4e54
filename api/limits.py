"""Rate limits per token, and per IP for calls without a valid token, counted in Redis.

One fixed window per caller: the first call of a window starts it, and the counter
expires with it. A call with a bearer token costs one round trip for both its token
lookup and its count (a pipeline; on a cluster, whose keys lie on other nodes, the
commands go one by one); only an unknown token costs a second one, counted against the
address, so inventing tokens buys no extra budget. Every answer carries the IETF `RateLimit-Policy`
and `RateLimit` headers; a caller over its limit gets 429 `rate_limited` with
`Retry-After`. Limits are configuration: `RATE_LIMIT_TOKEN` and `RATE_LIMIT_ANON`, as
"<count>/<unit>" or "<count> per <n> <unit>s" (second, minute, hour, day).
"""

from __future__ import annotations

import math
import re
from typing import Any

import redis
from flask import Flask, Response, g, request

from api import auth, prefetch
from api.context import boot
from api.errors import Problem
from events import keys
from service import tokens

UNLIMITED = ("/healthz", "/openapi.yaml", "/docs")
UNITS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
NOTATION = re.compile(r"^\s*(\d+)\s*(?:/|per)\s*(\d+)?\s*(second|minute|hour|day)s?\s*$")

# KEYS[1]: the caller's counter. ARGV[1]: the window in ms. Returns {count, ms left}.
# The counter is kept out of the AOF and replicas (REPL_NONE): a count is worth no fsync
# (with appendfsync always, one per request), and a restart merely opens new windows.
HIT = """
redis.set_repl(redis.REPL_NONE)
local n = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {n, left}
"""


def parse(limit: str) -> tuple[int, int]:
    """Return (calls, window seconds) of "1200/minute" or "10 per 2 minutes"."""
    match = NOTATION.match(limit)
    if not match:
        raise ValueError(f"a rate limit looks like '600/minute', not {limit!r}")
    count, times, unit = match.groups()
    return int(count), int(times or 1) * UNITS[unit]


def _checked(reply: Any) -> Any:
    """Raise a pipeline's reply if it is an error."""
    if isinstance(reply, Exception):
        raise reply
    return reply


def identity() -> str:
    """Return who the caller counts as for its open streams: `player:<id>` for a valid
    token, else `ip:<address>`."""
    try:
        player = auth.caller(boot(), required=False, strict=False)
    except redis.RedisError:  # the store is down: the view will answer 503
        player = None
    if player is not None:
        return "player:" + player["id"]
    return "ip:" + (request.remote_addr or "unknown")


class _OneByOne:
    """A pipeline's calls, sent one by one: on a cluster, redis-py's pipeline first asks
    the server where each script's keys are (COMMAND GETKEYS, a round trip per script),
    while its client finds the slot of EVAL and EVALSHA itself."""

    def __init__(self, client: Any):
        self.client, self.calls = client, []

    def get(self, key: str) -> None:
        self.calls.append(("GET", key))

    def execute_command(self, *args: Any) -> None:
        self.calls.append(args)

    def execute(self, raise_on_error: bool = True) -> list[Any]:
        out = []
        for args in self.calls:
            try:
                out.append(self.client.execute_command(*args))
            except redis.RedisError as e:
                if raise_on_error:
                    raise
                out.append(e)
        return out


def _batch() -> Any:
    """Return a pipeline on one Redis, calls one by one on a cluster."""
    if boot().store.cluster:
        return _OneByOne(boot().redis)
    return boot().redis.pipeline(transaction=False)


def install(app: Flask, cfg: dict[str, Any]) -> None:
    """Count every call but UNLIMITED ones, refuse those over the limit, add the headers."""
    token_limit, anon_limit = parse(cfg["RATE_LIMIT_TOKEN"]), parse(cfg["RATE_LIMIT_ANON"])

    def hit(pipe: Any, caller: str, window: int) -> None:
        # EVAL, not a registered script: a pipeline would first ask SCRIPT EXISTS (one
        # more round trip), and the cluster pipeline has no eval(); the server caches
        # the compiled script by its digest
        pipe.execute_command("EVAL", HIT, 1, keys.rate(caller), window * 1000)

    @app.before_request
    def count() -> None:
        if request.path.startswith(UNLIMITED):
            return
        token = auth.bearer()
        pipe = _batch()
        limit = anon_limit
        if isinstance(token, str):
            digest = tokens.hash_token(token)
            pipe.get(keys.token(digest))
            hit(pipe, "token:" + digest, token_limit[1])
        else:
            hit(pipe, "ip:" + (request.remote_addr or "unknown"), anon_limit[1])
        loads = prefetch.add(pipe)  # the path's game, read in the same round trip
        try:
            replies = pipe.execute(raise_on_error=False)
            if loads:
                prefetch.keep(replies.pop())
            if isinstance(token, str):
                record, figures = replies
                player = tokens.recognise(boot(), digest, _checked(record))
                auth.remember(player)
                if player is not None:
                    limit = token_limit
                else:  # an unknown token counts against the address
                    pipe = _batch()
                    hit(pipe, "ip:" + (request.remote_addr or "unknown"), anon_limit[1])
                    (figures,) = pipe.execute()
            else:
                (figures,) = replies
            calls, left_ms = (int(x) for x in _checked(figures))
        except redis.RedisError:  # a limiter outage must not take the API down; the
            return  # view answers 503 if the store is really gone
        g.rate = (limit, max(0, limit[0] - calls), max(0, math.ceil(left_ms / 1000)))
        if calls > limit[0]:
            raise Problem(429, "rate_limited", "too many calls; retry later", g.rate[2])

    @app.after_request
    def rate_headers(response: Response) -> Response:
        rate = g.get("rate")
        if rate is None:
            return response
        (amount, window), remaining, reset = rate
        response.headers["RateLimit-Policy"] = f'"default";q={amount};w={window}'
        response.headers["RateLimit"] = f'"default";r={remaining};t={reset}'
        if response.status_code == 429:  # unless the 429 set its own (too many streams)
            response.headers.setdefault("Retry-After", str(max(1, reset)))
        return response

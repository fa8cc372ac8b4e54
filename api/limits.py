"""Rate limits per token, and per IP for calls without a valid token, counted in Redis.

One fixed window per caller: the first call of a window starts it, and the counter
expires with it. A call with a bearer token costs one round trip for both its token
lookup and its count (a pipeline; on a cluster, whose keys lie on other nodes, the
commands go one by one); only an unknown token costs a second one, counted against the
address, so inventing tokens buys no extra budget. An action admitted without that round
trip (api.admission) is counted by its append's script instead. Every answer carries the
IETF `RateLimit-Policy` and `RateLimit` headers; a caller over its limit gets 429
`rate_limited` with `Retry-After`. Limits are configuration: `RATE_LIMIT_TOKEN` and
`RATE_LIMIT_ANON`, as "<count>/<unit>" or "<count> per <n> <unit>s" (second, minute, hour,
day).

Routes that need no Redis (the rulesets, the audit of a bundle, static files: marked
with `storeless`) count with the store's quick client (service.bootstrap: it gives up
within QUICK_TIMEOUT_S), and after a failure skip the count for QUIET_S: a stalled Redis
never holds them.
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from collections.abc import Callable
from typing import Any

import redis
from flask import Flask, Response, current_app, g, request

from api import auth, prefetch
from api.context import boot
from api.errors import Problem
from events import keys, round_trip, scripts
from service import tokens

UNLIMITED = ("/healthz", "/openapi.yaml", "/docs")
UNITS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
NOTATION = re.compile(r"^\s*(\d+)\s*(?:/|per)\s*(\d+)?\s*(second|minute|hour|day)s?\s*$")

HIT_SHA = hashlib.sha1(scripts.HIT.encode()).hexdigest()
QUIET_S = 1.0  # after the quick count failed, routes that need no Redis skip it this long
_quiet_until = 0.0  # per process


def storeless(view: Callable) -> Callable:
    """Mark a view that answers without Redis: its rate count must not wait for one."""
    view.needs_no_store = True  # type: ignore[attr-defined]
    return view


def _needs_no_store() -> bool:
    if request.endpoint == "static":
        return True
    view = current_app.view_functions.get(request.endpoint or "")
    return bool(getattr(view, "needs_no_store", False))


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


class _OneTrip(_OneByOne):
    """A pipeline's calls in one round trip on one Redis (events.round_trip)."""

    def execute(self, raise_on_error: bool = True) -> list[Any]:
        replies = round_trip.call(self.client, self.calls)
        if raise_on_error:
            for reply in replies:
                _checked(reply)
        return replies


def _batch(client: Any = None) -> Any:
    """Return a batch of calls on `client` (the store's by default): in one round trip on
    one Redis, one by one on a cluster."""
    client = client or boot().redis
    if boot().store.cluster:
        return _OneByOne(client)
    return _OneTrip(client)


def _hit(pipe: Any, key: str, window: int) -> None:
    # EVALSHA by hand, not a registered script: a pipeline would first ask SCRIPT EXISTS
    # (one more round trip); a server without it answers NOSCRIPT (`_counted`)
    pipe.execute_command("EVALSHA", HIT_SHA, 1, key, window * 1000)


def _counted(reply: Any, key: str, window: int) -> tuple[int, int]:
    """Return (calls, ms left) from the count's reply; after a NOSCRIPT (a restarted or
    flushed Redis) count again by EVAL, which also gives the server the script."""
    if isinstance(reply, redis.exceptions.NoScriptError):
        reply = boot().redis.execute_command("EVAL", scripts.HIT, 1, key, window * 1000)
    calls, left_ms = _checked(reply)
    return int(calls), int(left_ms)


def token_limit() -> tuple[int, int]:
    """(calls, window seconds) of a caller with a valid token."""
    return current_app.extensions["rate_limits"][0]


def _count_alone(key: str, window: int, client: Any = None) -> tuple[int, int]:
    """Count one call on counter `key` in a round trip of its own; return (calls, ms left)."""
    pipe = _batch(client)
    _hit(pipe, key, window)
    return _counted(pipe.execute(raise_on_error=False)[0], key, window)


def count(key: str, limit: tuple[int, int]) -> None:
    """Count one call on counter `key` (events.keys.rate) in a round trip of its own, then
    `settle` it."""
    try:
        figures = _count_alone(key, limit[1])
    except redis.RedisError:  # as in `enter`: a limiter outage lets the call through
        return
    settle(limit, *figures)


def settle(limit: tuple[int, int], calls: int, left_ms: int) -> None:
    """Keep the count for the answer's headers; refuse a call past the limit (429)."""
    g.rate = (limit, max(0, limit[0] - calls), max(0, math.ceil(left_ms / 1000)))
    if calls > limit[0]:
        raise Problem(429, "rate_limited", "too many calls; retry later", g.rate[2])


def enter(client: Any = None) -> None:
    """The request's first round trip (on `client`, the store's by default): its token's
    record, its count and (for the routes that read one) the path's game; refuse it past
    its limit."""
    token_limit, anon_limit = current_app.extensions["rate_limits"]
    token = auth.bearer()
    pipe = _batch(client)
    limit = anon_limit
    address = "ip:" + (request.remote_addr or "unknown")
    if isinstance(token, str):
        digest = tokens.hash_token(token)
        caller, window = keys.rate("token:" + digest), token_limit[1]
        pipe.get(keys.token(digest))
    else:
        caller, window = keys.rate(address), anon_limit[1]
    _hit(pipe, caller, window)
    loads = prefetch.add(pipe)  # the path's game, read in the same round trip
    try:
        replies = pipe.execute(raise_on_error=False)
        if loads:
            prefetch.keep(replies.pop())
        figures = _counted(replies.pop(), caller, window)
        if isinstance(token, str):
            player = tokens.recognise(boot(), digest, _checked(replies.pop()))
            auth.remember(player)
            if player is not None:
                limit = token_limit
            else:  # an unknown token counts against the address
                figures = _count_alone(keys.rate(address), anon_limit[1], client)
    except redis.RedisError:  # a limiter outage must not take the API down; the
        return  # view answers 503 if the store is really gone
    settle(limit, *figures)


def enter_quick() -> None:
    """`enter` for a route that needs no Redis: on the quick client, and not at all for
    QUIET_S after it failed (the call goes through uncounted, as in any limiter outage)."""
    global _quiet_until
    if time.monotonic() < _quiet_until:
        return
    enter(boot().quick or boot().redis)
    if "rate" not in g:  # the count failed: Redis is slow or gone
        _quiet_until = time.monotonic() + QUIET_S


def install(app: Flask, cfg: dict[str, Any]) -> None:
    """Count every call but UNLIMITED ones, refuse those over the limit, add the headers.
    A call already admitted (api.admission) is counted by its append instead."""
    app.extensions["rate_limits"] = (parse(cfg["RATE_LIMIT_TOKEN"]), parse(cfg["RATE_LIMIT_ANON"]))

    @app.before_request
    def first_round_trip() -> None:
        if request.path.startswith(UNLIMITED) or "admission" in g:
            return
        if _needs_no_store():
            enter_quick()
        else:
            enter()

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

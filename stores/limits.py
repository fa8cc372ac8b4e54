"""Counters that limit how often something happens: callers' calls per window (the rate
limiter, service.limits; invitations, service.tables) and the turn of the one worker
that sweeps the stalled games (service.stalled).

Keys (events.keys): `mf:rate:<caller>` and `mf:player:<id>:invitations_sent[:<target>]`
(counted by events.scripts.HIT: the first call of a window starts it, the counter
expires with it), `mf:{workers}:stalled-sweep` (SET NX with a time to live).

The request's first round trip (service.limits.enter) sends a count in one batch with
other roles' reads; the batch and the count's reply are built here (`batch`, `hit`,
`counted`), the only place that knows how the count is sent.
"""

from __future__ import annotations

from typing import Any, Protocol

import redis

from events import keys, round_trip, scripts


class LimitsStore(Protocol):
    def count(self, counter: str, window_s: int) -> tuple[int, int]:
        """Count one call on `counter` in its window of `window_s` seconds (started by
        the first call); return (calls in the window so far, ms until it ends)."""

    def take_sweep_turn(self, every_s: float) -> bool:
        """True for one caller per `every_s` seconds (the sweeper whose turn it is)."""


class RedisLimits:
    def __init__(self, client: redis.Redis, one_trip: bool = True):
        """`one_trip`: the calls of a batch go in one round trip (one Redis), else one
        by one (a cluster)."""
        self.redis, self.one_trip = client, one_trip

    def count(self, counter: str, window_s: int) -> tuple[int, int]:
        together = batch(self.redis, self.one_trip)
        hit(together, counter, window_s)
        return counted(self.redis, together.execute(raise_on_error=False)[0], counter, window_s)

    def take_sweep_turn(self, every_s: float) -> bool:
        return bool(self.redis.set(keys.stalled_sweep(), "1", nx=True, px=int(every_s * 1000)))


def checked(reply: Any) -> Any:
    """Raise a batch's reply if it is an error."""
    if isinstance(reply, Exception):
        raise reply
    return reply


class OneByOne:
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


class OneTrip(OneByOne):
    """A pipeline's calls in one round trip on one Redis (events.round_trip)."""

    def execute(self, raise_on_error: bool = True) -> list[Any]:
        replies = round_trip.call(self.client, self.calls)
        if raise_on_error:
            for reply in replies:
                checked(reply)
        return replies


def batch(client: Any, one_trip: bool) -> OneByOne:
    """A batch of calls on `client`: in one round trip on one Redis, one by one on a
    cluster."""
    return OneTrip(client) if one_trip else OneByOne(client)


def hit(calls: OneByOne, counter: str, window_s: int) -> None:
    """Add the count of one call on `counter` to a batch."""
    # EVALSHA by hand, not a registered script's call: a pipeline would first ask SCRIPT
    # EXISTS (one more round trip); a server without it answers NOSCRIPT (`counted`)
    calls.execute_command("EVALSHA", scripts.sha(scripts.HIT), 1, counter, window_s * 1000)


def counted(client: Any, reply: Any, counter: str, window_s: int) -> tuple[int, int]:
    """Return (calls, ms left) from the count's reply; after a NOSCRIPT (a restarted or
    flushed Redis) count again by EVAL on `client`, which also gives the server the
    script."""
    if isinstance(reply, redis.exceptions.NoScriptError):
        reply = client.execute_command("EVAL", scripts.HIT, 1, counter, window_s * 1000)
    calls, left_ms = checked(reply)
    return int(calls), int(left_ms)

"""Rate limits per token, and per IP for calls without a valid token, counted in Redis,
and a request's first round trip, which carries the count.

One fixed window per caller: the first call of a window starts it, and the counter
expires with it. A call with a bearer token costs one round trip for its token lookup,
its count and (for the routes that read one) the load of the game it names (`enter`;
on a cluster, whose keys lie on other nodes, the commands go one by one); only an
unknown token costs a second one, counted against the address, so inventing tokens
buys no extra budget. An action admitted without that round trip (service.admission)
is counted by its append's script instead. Limits are configuration:
`RATE_LIMIT_TOKEN` and `RATE_LIMIT_ANON`, as "<count>/<unit>" or "<count> per <n>
<unit>s" (second, minute, hour, day).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import redis

from events import keys
from events.repository import Loaded
from service import tokens

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

UNITS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
NOTATION = re.compile(r"^\s*(\d+)\s*(?:/|per)\s*(\d+)?\s*(second|minute|hour|day)s?\s*$")

Limit = tuple[int, int]  # (calls, window seconds)


def parse(limit: str) -> Limit:
    """Return (calls, window seconds) of "1200/minute" or "10 per 2 minutes"."""
    match = NOTATION.match(limit)
    if not match:
        raise ValueError(f"a rate limit looks like '600/minute', not {limit!r}")
    count, times, unit = match.groups()
    return int(count), int(times or 1) * UNITS[unit]


@dataclass(frozen=True)
class Limits:
    token: Limit  # a caller with a valid token
    anon: Limit  # any other caller, by address

    @classmethod
    def of(cls, cfg: dict[str, Any]) -> Limits:
        return cls(parse(cfg["RATE_LIMIT_TOKEN"]), parse(cfg["RATE_LIMIT_ANON"]))


@dataclass(frozen=True)
class Count:
    """A call's count in its caller's window: `calls` so far, `left_ms` until it ends."""

    limit: Limit
    calls: int
    left_ms: int

    @property
    def over(self) -> bool:
        return self.calls > self.limit[0]

    @property
    def remaining(self) -> int:
        return max(0, self.limit[0] - self.calls)

    @property
    def reset_s(self) -> int:
        return max(0, math.ceil(self.left_ms / 1000))


def token_counter(digest: str) -> str:
    """The counter of the caller with the token whose digest is `digest`."""
    return keys.rate("token:" + digest)


def address_counter(address: str) -> str:
    """The counter of a caller without a valid token, by its address."""
    return keys.rate("ip:" + address)


@dataclass
class Entry:
    """What a request's first round trip found: whether it reached Redis (`reached`;
    if not, nothing else is known), the token's player (None: an unknown token, or no
    token), the call's count, and the game the route reads (loaded when asked)."""

    reached: bool
    player: dict[str, Any] | None = None
    count: Count | None = None
    game: Callable[[], Loaded] | None = None


def enter(
    boot: Bootstrap,
    limits: Limits,
    digest: str | None,
    address: str,
    game_id: str | None,
    quick: bool = False,
) -> Entry:
    """The request's first round trip (`quick`: on the client that gives up soon): the
    record of the token whose digest is `digest` (if any), the caller's count and the
    load of game `game_id` (if any). A limiter outage lets the call through (`reached`
    False: the view answers 503 if the store is really gone)."""
    if digest is not None:
        counter, window = token_counter(digest), limits.token[1]
    else:
        counter, window = address_counter(address), limits.anon[1]
    try:
        trip = boot.limits.first_trip(digest, counter, window, game_id, quick)
        count, player = Count(limits.anon, trip.calls, trip.left_ms), None
        if digest is not None:
            player = tokens.recognise(boot, digest, trip.token)
            if player is not None:
                count = Count(limits.token, trip.calls, trip.left_ms)
            else:  # an unknown token counts against the address
                alone = boot.limits.count(address_counter(address), limits.anon[1], quick)
                count = Count(limits.anon, *alone)
    except redis.RedisError:
        return Entry(False)
    return Entry(True, player, count, trip.game)


def count(boot: Bootstrap, counter: str, limit: Limit) -> Count | None:
    """Count one call on `counter` in a round trip of its own (None: the limiter is
    down, which lets the call through)."""
    try:
        return Count(limit, *boot.limits.count(counter, limit[1]))
    except redis.RedisError:
        return None

"""Counters that limit how often something happens: callers' calls per window (the rate
limiter, service.limits; invitations, service.tables) and the turn of the one worker
that sweeps the stalled games (service.stalled).

Keys (events.keys): `mf:rate:<caller>` and `mf:player:<id>:invitations_sent[:<target>]`
(counted by events.scripts.HIT: the first call of a window starts it, the counter
expires with it), `mf:{workers}:stalled-sweep` (SET NX with a time to live).

The request's first round trip (service.limits.enter) sends its count in one batch with
the token's record and the game's load (`first_trip`): on one Redis in one round trip
(events.round_trip), on a cluster one by one (redis-py's pipeline would first ask where
each script's keys are).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import redis

from events import keys, round_trip, scripts
from events.repository import GameRepository, Loaded


@dataclass
class FirstTrip:
    """What a request's first round trip read: its token's record (None: no token, or an
    unknown one), its call's count (`calls` in the window, `left_ms` until it ends), and
    the load of the game it names (None: no game, or read later by the use case)."""

    token: bytes | None
    calls: int
    left_ms: int
    game: Callable[[], Loaded] | None = None


class LimitsStore(Protocol):
    def count(self, counter: str, window_s: int, quick: bool = False) -> tuple[int, int]:
        """Count one call on `counter` in its window of `window_s` seconds (started by
        the first call); return (calls in the window so far, ms until it ends). `quick`:
        on the client that gives up soon (a route that needs no store)."""

    def first_trip(
        self, digest: str | None, counter: str, window_s: int, game_id: str | None, quick: bool
    ) -> FirstTrip:
        """In one round trip: the record of the token whose digest is `digest` (if any),
        the count of one call on `counter`, the load of game `game_id` (if any)."""

    def take_sweep_turn(self, every_s: float) -> bool:
        """True for one caller per `every_s` seconds (the sweeper whose turn it is)."""


class RedisLimits:
    def __init__(
        self,
        client: redis.Redis,
        games: GameRepository,
        one_trip: bool = True,
        quick: redis.Redis | None = None,
    ):
        """`games`: whose loads a first trip carries; `one_trip`: the calls of a batch go
        in one round trip (one Redis), else one by one (a cluster); `quick`: the client
        that gives up soon."""
        self.redis, self.games, self.one_trip = client, games, one_trip
        self.quick = quick or client

    def count(self, counter: str, window_s: int, quick: bool = False) -> tuple[int, int]:
        together = _batch(self.quick if quick else self.redis, self.one_trip)
        _hit(together, counter, window_s)
        return _counted(self.redis, together.execute(raise_on_error=False)[0], counter, window_s)

    def first_trip(
        self, digest: str | None, counter: str, window_s: int, game_id: str | None, quick: bool
    ) -> FirstTrip:
        together = _batch(self.quick if quick else self.redis, self.one_trip)
        if digest is not None:
            together.get(keys.token(digest))
        _hit(together, counter, window_s)
        held = None
        if game_id is not None:  # the path's game, read in the same round trip
            command, held = self.games.load_command(game_id)
            together.execute_command(*command)
        replies = together.execute(raise_on_error=False)
        game = None
        if game_id is not None:
            reply = replies.pop()
            if not isinstance(reply, Exception):  # e.g. a script not yet on the server:
                game = self._later(game_id, reply, held)  # the use case loads it itself
        calls, left_ms = _counted(self.redis, replies.pop(), counter, window_s)
        token = _checked(replies.pop()) if digest is not None else None
        return FirstTrip(token, calls, left_ms, game)

    def _later(self, game_id: str, reply: Any, held: Any) -> Callable[[], Loaded]:
        """The load's reply, read when the view asks for it (not for a refused call)."""
        return lambda: self.games.loaded(game_id, reply, held)

    def take_sweep_turn(self, every_s: float) -> bool:
        return bool(self.redis.set(keys.stalled_sweep(), "1", nx=True, px=int(every_s * 1000)))


def _checked(reply: Any) -> Any:
    """Raise a batch's reply if it is an error."""
    if isinstance(reply, Exception):
        raise reply
    return reply


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


def _batch(client: Any, one_trip: bool) -> _OneByOne:
    """A batch of calls on `client`: in one round trip on one Redis, one by one on a
    cluster."""
    return _OneTrip(client) if one_trip else _OneByOne(client)


def _hit(calls: _OneByOne, counter: str, window_s: int) -> None:
    """Add the count of one call on `counter` to a batch."""
    # EVALSHA by hand, not a registered script's call: a pipeline would first ask SCRIPT
    # EXISTS (one more round trip); a server without it answers NOSCRIPT (`_counted`)
    calls.execute_command("EVALSHA", scripts.sha(scripts.HIT), 1, counter, window_s * 1000)


def _counted(client: Any, reply: Any, counter: str, window_s: int) -> tuple[int, int]:
    """Return (calls, ms left) from the count's reply; after a NOSCRIPT (a restarted or
    flushed Redis) count again by EVAL on `client`, which also gives the server the
    script."""
    if isinstance(reply, redis.exceptions.NoScriptError):
        reply = client.execute_command("EVAL", scripts.HIT, 1, counter, window_s * 1000)
    calls, left_ms = _checked(reply)
    return int(calls), int(left_ms)

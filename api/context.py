"""The request's view of the process (the bootstrap object the app was built with), and
the request's own context: what its first round trip or its admission found out, in one
object (built by api.entry before the view runs, read by auth, the view and the
rate-limit headers)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import current_app, g

from service.admission import Admission
from service.bootstrap import Bootstrap
from service.errors import Unauthorized
from service.limits import Count

UNSET: Any = object()  # the caller was not looked up yet


@dataclass
class RequestContext:
    """`caller`: the player of the request's token, None without one, Unauthorized for a
    malformed or unknown one (UNSET until looked up); `count`: the call's rate count
    (None: not counted, or not yet); `game`: the game the route reads, loaded in the
    first round trip or held by this process (game id, how to get it); `admission`: an
    action admitted without a round trip, checked and counted by its append."""

    caller: Any = UNSET
    count: Count | None = None
    game: tuple[str, Callable[[], Any]] | None = None
    admission: Admission | None = None

    def take_game(self, game_id: str) -> Any:
        """Return the game `game_id` as loaded before the view, once (None if it was not:
        the use case loads it)."""
        game, self.game = self.game, None
        return game[1]() if game is not None and game[0] == game_id else None


def boot() -> Bootstrap:
    """Return the app's bootstrap object (connections, scheduler, config)."""
    return current_app.extensions["marketfold"]


def current() -> RequestContext:
    """Return the request's context (a new one if nothing was found out yet)."""
    store = g._get_current_object()  # one lookup of the proxy
    ctx = store.get("context")
    if ctx is None:
        ctx = store.context = RequestContext()
    return ctx


def caller_found(player: dict[str, str] | None) -> Any:
    """The context's `caller` for a token whose player is `player` (None: unknown)."""
    return player if player is not None else Unauthorized("unauthorized", "unknown token")

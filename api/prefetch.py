"""The game a request reads, loaded in the request's first round trip to Redis.

The rate limiter's pipeline (api.limits: the token lookup and the count) also carries the
load script of the game named in the path, for the routes that read it: the game, its
legal actions, and an action posted without an Idempotency-Key (with one, the load must
look the key up under the caller's id, which that round trip does not know yet). The
view hands the loaded game to its use case, which loads it itself when there is none
(e.g. on a retry after a lost race). The load is a read: it changes nothing even when
the limiter then refuses the request.
"""

from __future__ import annotations

from typing import Any

from flask import g, request

from api.context import boot
from events.store import Loaded

ROUTES = {"api.get_game", "api.legal_actions", "api.post_action"}


def add(pipe: Any) -> int:
    """Add the load of the path's game to `pipe` if the route reads it; return how many
    commands were added (0 or 1)."""
    game_id = (request.view_args or {}).get("game_id")
    if request.endpoint not in ROUTES or not isinstance(game_id, str):
        return 0
    if request.endpoint == "api.post_action" and "Idempotency-Key" in request.headers:
        return 0
    sha, args, g.prefetch_held = boot().store.load_call(game_id)
    pipe.execute_command("EVALSHA", sha, *args)
    g.prefetch_id = game_id
    return 1


def keep(reply: Any) -> None:
    """Keep the load's reply (an error, e.g. a script not yet on the server, is dropped:
    the use case loads the game itself)."""
    if isinstance(reply, Exception):
        g.pop("prefetch_id", None)
    else:
        g.prefetch_reply = reply


def give(game_id: str, loaded: Loaded) -> None:
    """Hand the view the game as this process holds it (api.admission: no round trip)."""
    g.prefetch_id, g.prefetch_loaded = game_id, loaded


def take(game_id: str) -> Loaded | None:
    """Return the game as loaded in the first round trip, once (None if it was not)."""
    if g.pop("prefetch_id", None) != game_id:
        return None
    if "prefetch_loaded" in g:
        return g.pop("prefetch_loaded")
    if "prefetch_reply" not in g:
        return None
    return boot().store.loaded(game_id, g.pop("prefetch_reply"), g.pop("prefetch_held"))

"""How a request enters, and the action path: the request's context (api.context) is
built here and nowhere else.

Before the view (`begin`, the app's first hook) a counted call takes one of two ways:
- an action (`POST /actions` without an Idempotency-Key) on a game this process holds,
  by a token it knows, is admitted without a round trip (service.admission): its append
  checks the token and the game and counts the call;
- any other call takes its first round trip (service.limits.enter): its token's record,
  its count and, for the routes that read one, the game in its path (an action with an
  Idempotency-Key is not loaded here: its load looks the key up under the caller's id,
  which that round trip does not know yet). Past its limit it is refused with 429.
A route that needs no Redis (api.limits.storeless) takes its first round trip on the
store's quick client, and none at all for QUIET_S after that failed. After the view, the
answer gets the rate-limit headers (api.limits).

An action runs in `counted` and through `act`: what is decided on a held record and is no
answer (service.admission.Recheck) is decided again by the command after the usual first
round trip (`game_commands.act`, given that round trip, owns the retry); an admitted call
that no append counted (a malformed body, an illegal action) is counted in a round trip
of its own, and refused with 429 past the limit, as the usual path would.

Routes are named by their views, not by endpoint strings: `reads_game` marks a view whose
first round trip loads the game in its path, `admits` the action's view.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask, Request, current_app, request

from api import auth, limits
from api.context import UNSET, RequestContext, boot, caller_found, current
from service import admission, game_commands, tokens
from service import limits as counting
from service.bootstrap import Bootstrap
from service.loop import Outcome

_quiet_until = 0.0  # per process: routes that need no Redis skip their count until then


def reads_game(view: Callable) -> Callable:
    """Mark a view that reads the game in its path: its first round trip loads it."""
    view.reads_game = True  # type: ignore[attr-defined]
    return view


def admits(view: Callable) -> Callable:
    """Mark the action's view: without an Idempotency-Key, a call by a token this process
    knows on a game it holds is admitted without a round trip (service.admission); with
    one, its game is not loaded first (its load looks the key up under the caller's id)."""
    view.admits = True  # type: ignore[attr-defined]
    return view


def _marked(req: Request, mark: str) -> bool:
    """Return True if the view `req` goes to carries `mark` (reads_game, admits)."""
    view = current_app.view_functions.get(req.endpoint or "")
    return bool(getattr(view, mark, False))


def install(app: Flask, cfg: dict[str, Any]) -> None:
    """Build every request's context before its view; add the rate-limit headers after."""
    app.extensions["rate_limits"] = counting.Limits.of(cfg)
    if cfg.get("OFFLOAD_HELPER"):  # api.offload: the serving process counted the call
        return
    app.before_request(begin)
    app.after_request(limits.headers)


def _limits() -> counting.Limits:
    return current_app.extensions["rate_limits"]


def begin() -> None:
    """Admit an action without a round trip, or take the request's first round trip."""
    req = request._get_current_object()  # the request and the app looked up once here
    if req.path.startswith(limits.UNLIMITED):
        return
    app = current_app._get_current_object()
    ctx, deps, counts = current(), app.extensions["marketfold"], app.extensions["rate_limits"]
    if limits.needs_no_store(req, app):
        _quick_trip(ctx, req, deps, counts)
    elif not _admit(ctx, req, deps, counts):
        _first_trip(ctx, req, deps, counts)


def _quick_trip(
    ctx: RequestContext, req: Request, deps: Bootstrap, counts: counting.Limits
) -> None:
    """The first round trip of a route that needs no Redis: on the quick client, and not
    at all for QUIET_S after it failed (the call goes through uncounted, as in any
    limiter outage)."""
    global _quiet_until
    if time.monotonic() < _quiet_until:
        return
    if not _first_trip(ctx, req, deps, counts, quick=True):  # Redis slow or gone
        _quiet_until = time.monotonic() + limits.QUIET_S


def _path_game(req: Request) -> str | None:
    game_id = (req.view_args or {}).get("game_id")
    return game_id if isinstance(game_id, str) else None


def _admit(ctx: RequestContext, req: Request, deps: Bootstrap, counts: counting.Limits) -> bool:
    if "Idempotency-Key" in req.headers or not _marked(req, "admits"):
        return False
    game_id, token = _path_game(req), auth.bearer(req)
    if game_id is None or not isinstance(token, str):
        return False
    admitted = admission.admit(deps, token, game_id, counts.token)
    if admitted is None:
        return False
    ctx.caller, ctx.admission = admitted.player, admitted.admission
    ctx.game = (game_id, lambda: admitted.game)
    return True


def _first_trip(
    ctx: RequestContext, req: Request, deps: Bootstrap, counts: counting.Limits, quick: bool = False
) -> bool:
    """The request's first round trip (`quick`: on the client that gives up soon); return
    False if it did not reach Redis."""
    token = auth.bearer(req)
    digest = tokens.hash_token(token) if isinstance(token, str) else None
    game_id = _path_game(req) if _marked(req, "reads_game") else None
    if game_id is not None and "Idempotency-Key" in req.headers and _marked(req, "admits"):
        game_id = None
    address = req.remote_addr or "unknown"
    entry = counting.enter(deps, counts, digest, address, game_id, quick)
    if not entry.reached:  # a limiter outage must not take the API down; the view
        return False  # answers 503 if the store is really gone
    if digest is not None:
        ctx.caller = caller_found(entry.player)
    if game_id is not None and entry.game is not None:
        ctx.game = (game_id, entry.game)
    limits.settle(ctx, entry.count)
    return True


@contextmanager
def counted() -> Iterator[None]:
    """Run an action's view; then settle an admitted call's count: as its append counted
    it, or in a round trip of its own if no append did (past the limit: 429, whatever
    the view answered)."""
    try:
        yield
    finally:
        ctx = current()
        admitted, ctx.admission = ctx.admission, None
        if admitted is not None:  # else the first round trip counted the call
            count = admitted.count or counting.count(boot(), admitted.counter, admitted.limit)
            limits.settle(ctx, count)


def act(
    game_id: str, player_id: str, action: dict[str, Any], idem: str, if_match: int | None
) -> Outcome:
    """Apply the caller's action (service.game_commands.act) on the game as loaded or held
    before the view. If what was decided on a held record is no answer, the command
    decides again once `enter` has taken the usual first round trip (401 if the token is
    gone meanwhile): the retry is the command's, the round trip the API's."""
    ctx = current()

    def enter() -> Any:  # the game as the first round trip loaded it, or None
        ctx.admission, ctx.caller = None, UNSET
        _first_trip(ctx, request._get_current_object(), boot(), _limits())
        auth.caller(boot())
        return ctx.take_game(game_id)

    admitted = ctx.take_game(game_id), ctx.admission
    return game_commands.act(boot(), game_id, player_id, action, idem, if_match, *admitted, enter)

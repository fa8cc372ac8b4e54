"""An action admitted without a round trip of its own: `POST /actions` in one round trip.

A request's first round trip (api.limits.enter) reads its token's record, counts it and
loads the path's game. An action usually follows its caller's `GET /legal` on the same
connection, so this process already holds the game (events.store: its newest record and
seed) and the token's record (service.tokens.known). Then nothing is read first: the
rules decide on the held record, and the append's script checks what the first round
trip would have read (the token's record is unchanged, the log's entry at the expected
version is the one held) and counts the call, before it writes. If a check fails,
nothing is counted or written and the action takes the usual path (`Recheck`); past the
limit it is refused with 429 and nothing written; a log that moved on is a lost race,
decided again as usual. A call refused before its append (a malformed body, an illegal
action) is counted in a round trip of its own, and refused with 429 if that count is
past the limit, as the usual path would have.

One Redis only: on a cluster the token and counter keys lie on other nodes than the game.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask, g, request

from api import auth, limits, prefetch
from api.context import boot
from events import keys
from events.store import Admission
from service import tokens

ROUTE = "api.post_action"


def install(app: Flask) -> None:
    """Admit an action before the limiter's first round trip runs (api.limits)."""
    app.before_request(admit)


def admit() -> None:
    """Admit the request without a round trip if it is an action (without an
    Idempotency-Key) on a game this process holds, by a token it knows."""
    game_id = (request.view_args or {}).get("game_id")
    if request.endpoint != ROUTE or not isinstance(game_id, str) or boot().store.cluster:
        return
    token = auth.bearer()
    if not isinstance(token, str) or "Idempotency-Key" in request.headers:
        return
    digest = tokens.hash_token(token)
    known, held = tokens.known(digest), boot().store.held(game_id)
    if known is None or held is None:
        return
    limit = limits.token_limit()
    g.admission = Admission(
        keys.token(digest), known[0], keys.rate("token:" + digest), limit[1] * 1000, limit[0]
    )
    auth.remember(known[1])
    prefetch.give(game_id, held)


@contextmanager
def admitted() -> Iterator[Admission | None]:
    """Yield the request's admission (None: it took the usual first round trip), and
    settle its count when the view is done with it: as the append counted it, or in a
    round trip of its own if no append did."""
    admission = g.get("admission")
    limit = limits.token_limit()
    try:
        yield admission
    except Exception:  # OverLimit and any refusal: past the limit, the answer is 429
        _settle(admission, limit)
        raise
    _settle(admission, limit)


def _settle(admission: Admission | None, limit: tuple[int, int]) -> None:
    if admission is None or g.get("admission") is not admission:
        return  # the usual path counted the call (or there was no admission)
    del g.admission
    if admission.calls:
        limits.settle(limit, admission.calls, admission.left_ms)
    else:
        limits.count(admission.count_key, limit)


def recheck() -> None:
    """Take the usual first round trip after all (the admission's checks failed)."""
    g.pop("admission", None)
    g.pop("caller", None)
    limits.enter()

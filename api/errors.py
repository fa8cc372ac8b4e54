"""Every error leaves as application/problem+json: the one map from domain errors (and
the rules', the store's, marshmallow's, Redis's and werkzeug's) to HTTP statuses."""

from __future__ import annotations

import logging
from typing import Any

import redis
from flask import Flask
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from games.base import InvalidAction, OptionError, RuleViolation
from service import errors, metrics

logger = logging.getLogger(__name__)
# a Redis that is down, or in a cluster the master of the request's slots (no replica)
STORE_DOWN = (
    redis.ConnectionError,
    redis.TimeoutError,
    redis.exceptions.ClusterError,
    redis.exceptions.SlotNotCoveredError,
    # every node of a cluster unreachable (all restarting at once): redis-py's cluster
    # client cannot learn the slots, and says so with an exception outside RedisError
    redis.exceptions.RedisClusterException,
)
STATUS: dict[type[errors.DomainError], int] = {
    errors.Unauthorized: 401,
    errors.Forbidden: 403,
    errors.NotFound: 404,
    errors.Conflict: 409,
    errors.Invalid: 422,
    errors.Contention: 503,
}


class Problem(Exception):
    """An error only HTTP has (a body too large, too many open streams): its status,
    a stable code, and `retry_after` seconds for a 429."""

    def __init__(self, status: int, code: str, detail: str, retry_after: float | None = 1):
        super().__init__(detail)
        self.status, self.code, self.detail, self.retry_after = status, code, detail, retry_after


def problem(status: int, code: str, detail: str, retry_after: float | None = 1, **extra: Any):
    """Return a Flask response tuple for a problem+json body (`retry_after`: seconds, the
    Retry-After header of a 429 or 503; None leaves it to the rate limiter)."""
    body = {
        "type": f"https://marketfold.dev/problems/{code}",
        "title": code.replace("_", " "),
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }
    headers = {"Content-Type": "application/problem+json"}
    if status in (429, 503) and retry_after is not None:
        headers["Retry-After"] = str(max(1, round(retry_after)))
    if status == 401:
        headers["WWW-Authenticate"] = 'Bearer realm="marketfold"'
    return body, status, headers


def field_paths(messages: Any, path: str = "") -> dict[str, list[str]]:
    """Flatten marshmallow's nested messages into the one shape of `errors`: a path
    (`name`, `options.goal`, `points[0]`; `_body` for the body as a whole) -> messages."""
    if isinstance(messages, str):
        return {path or "_body": [messages]}
    items = messages.items() if isinstance(messages, dict) else enumerate(messages)
    if not isinstance(messages, dict) and all(isinstance(m, str) for m in messages):
        return {path or "_body": list(messages)}
    flat: dict[str, list[str]] = {}
    for key, value in items:
        if key == "_schema":
            where = path or "_body"
        elif isinstance(key, int):
            where = f"{path}[{key}]"
        else:
            where = f"{path}.{key}" if path else str(key)
        for name, said in field_paths(value, where).items():
            flat.setdefault(name, []).extend(said)
    return flat


def _domain(e: errors.DomainError):
    if isinstance(e, errors.TooFast):
        return problem(429, e.code, e.detail, retry_after=e.retry_after)
    status = next(s for kind, s in STATUS.items() if isinstance(e, kind))
    return problem(status, e.code, e.detail, **e.extra)


def _standing(e: Exception) -> dict[str, Any]:
    """A refused action's `version` and `actions` now (service.game_queries.standing)."""
    return getattr(e, "standing", None) or {}


def _http(e: HTTPException):
    if isinstance(getattr(e, "original_exception", None), STORE_DOWN):
        # Redis failed outside a view (e.g. an after_request hook reading the rate
        # limiter): Flask wraps that in a 500, but it is the same outage as in a view.
        return _unavailable(e)
    codes = {
        404: "not_found",
        405: "method_not_allowed",
        408: "body_timeout",
        413: "body_too_large",
        415: "invalid_body",
        429: "rate_limited",
    }
    code = codes.get(e.code or 500, "http_error")
    # a 429 here is the rate limiter's: its own hook sets Retry-After to the window's reset
    retry = None if e.code == 429 else 1
    body, status, headers = problem(e.code or 500, code, e.description or code, retry)
    if getattr(e, "valid_methods", None):
        headers["Allow"] = ", ".join(e.valid_methods)
    return body, status, headers


def _unavailable(e: Exception):
    metrics.redis_error("api", getattr(e, "original_exception", None) or e)
    return problem(503, "store_unavailable", "the event store is unreachable; retry")


def _not_replicated(e: errors.NotReplicated):
    """A write kept on the master that its replicas did not confirm in time: not an
    acknowledgement (it could still be lost with the master), and no failure either."""
    retry = "retry with the same Idempotency-Key: it is answered with this action's "
    retry += "result once the replicas have it, never applied twice"
    extra = {"idempotency_key": e.key} if e.key else {}
    detail = f"{e}; {retry}" if e.key else f"{e}; retry"
    return problem(503, "not_replicated", detail, **extra)


def _unexpected(e: Exception):
    logger.exception("unhandled error")
    return problem(500, "internal_error", "the server failed; the request was not applied")


def register(app: Flask) -> None:
    """Map every exception the API raises to its problem response."""
    app.register_error_handler(errors.DomainError, _domain)
    app.register_error_handler(
        Problem, lambda e: problem(e.status, e.code, e.detail, e.retry_after)
    )
    app.register_error_handler(
        ValidationError,
        lambda e: problem(
            422, "invalid_body", "the request body is invalid", errors=field_paths(e.messages)
        ),
    )
    app.register_error_handler(
        errors.BundleError,
        lambda e: problem(422, "invalid_body", f"not a bundle: {e}", errors={e.path: [e.reason]}),
    )
    app.register_error_handler(
        InvalidAction,
        lambda e: problem(422, e.code, str(e), errors={e.field or "type": [str(e)]}),
    )
    app.register_error_handler(
        OptionError,
        lambda e: problem(422, "invalid_option", str(e), errors={f"options.{e.field}": [e.reason]}),
    )
    app.register_error_handler(
        RuleViolation,
        lambda e: problem(409, e.code, str(e), **_standing(e), **getattr(e, "extra", {})),
    )
    app.register_error_handler(
        errors.NotSeated, lambda e: problem(403, "not_seated", "you hold no seat in this game")
    )
    app.register_error_handler(
        errors.StaleVersion, lambda e: problem(412, "version_mismatch", str(e), **_standing(e))
    )
    app.register_error_handler(errors.NotReplicated, _not_replicated)
    for exc in STORE_DOWN:
        app.register_error_handler(exc, _unavailable)
    app.register_error_handler(HTTPException, _http)
    app.register_error_handler(Exception, _unexpected)

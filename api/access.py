"""Every request's id, timing, figures and access line.

A request carries an id: the caller's `X-Request-Id` when it is a short token of letters,
digits, `.`, `_` and `-` (a proxy's or a client's, so one id follows a request through
them), else a new one; the answer echoes it in `X-Request-Id`, and every line logged for
the request names it. The access line (`marketfold.access`) says the method, the route
(the URL rule), the path, the status, the time taken and the caller's address: never a
query string (an unlisted game's secret travels there), a header or a body, so no token
is ever logged.
"""

from __future__ import annotations

import logging
import re
import secrets
import time

from flask import Flask, Response, g, request

from service import metrics

logger = logging.getLogger("marketfold.access")
HEADER = "X-Request-Id"
_GIVEN = re.compile(r"[A-Za-z0-9._-]{1,64}")


def install(app: Flask, cfg: dict) -> None:
    lines = bool(cfg.get("ACCESS_LOG", True))

    @app.before_request
    def started() -> None:
        request.environ["marketfold.started"] = time.perf_counter()
        given = request.headers.get(HEADER, "")
        g.request_id = given if _GIVEN.fullmatch(given) else secrets.token_hex(8)

    @app.after_request
    def finished(response: Response) -> Response:
        began = request.environ.get("marketfold.started")
        if began is None:  # refused before the app's hooks ran
            return response
        rule = request.url_rule.rule if request.url_rule is not None else "unmatched"
        seconds = time.perf_counter() - began
        metrics.request(rule, response.status_code, seconds)
        response.headers[HEADER] = g.request_id
        if not lines:
            return response
        logger.info(
            "%s %s %d",
            request.method,
            request.path,
            response.status_code,
            extra={
                "request_id": g.request_id,
                "route": rule,
                "ms": round(seconds * 1000, 1),
                "remote": request.remote_addr,
            },
        )
        return response

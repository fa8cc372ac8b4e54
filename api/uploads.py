"""Request bodies on their way in: each must arrive within a deadline, and each caller
may send only a few at once (WSGI middleware around the app).

gunicorn bounds the wait for a request's headers (its keep-alive timeout, 2 s) but not
for its body: a client that sends headers and then a byte now and then held a connection
and a greenlet for as long as it liked, and some thousands of them took every connection
of the API (issue #27.6). Here:

- a body must arrive whole within `BODY_TIMEOUT_S` (`BUNDLE_TIMEOUT_S` for `POST
  /v1/verify`, whose body may be 16 MiB) from the start of the request, else `408
  body_timeout`;
- a caller may be sending at most `UPLOADS_PER_TOKEN` bodies at once per bearer token and
  `UPLOADS_PER_ADDRESS` per address (tokens or not; invented tokens gain nothing), per
  API process; past that, `429 too_many_uploads` at once, without reading the body.

Both answers close the connection (the rest of a slow body is never read). Requests
without a body are not counted. The deadline needs gevent (as served, `marketfold
serve`); without it (the Flask test client) bodies are in memory anyway.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from werkzeug.exceptions import RequestTimeout

from api.errors import problem

BUNDLE_PATH = "/v1/verify"


def _has_body(environ: dict[str, Any]) -> bool:
    if "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
        return True
    length = environ.get("CONTENT_LENGTH") or "0"
    return not length.isdigit() or int(length) > 0


def _callers(environ: dict[str, Any]) -> list[str]:
    """Who the body counts against: its address, and its bearer token if it carries one
    (a digest: the token itself is never kept)."""
    out = ["ip:" + environ.get("REMOTE_ADDR", "unknown")]
    scheme, _, token = environ.get("HTTP_AUTHORIZATION", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        out.append("token:" + hashlib.sha256(token.strip().encode()).hexdigest()[:32])
    return out


def _gevent_timeout() -> Any:
    """gevent's Timeout class when gevent runs this process (monkey-patched), else None."""
    try:
        from gevent import Timeout, monkey
    except ImportError:
        return None
    return Timeout if monkey.is_module_patched("socket") else None


class TimedInput:
    """A WSGI input stream whose reads fail with 408 once `deadline` (monotonic) passes."""

    def __init__(self, stream: Any, seconds: float, timeout_class: Any):
        import time

        self._stream, self._seconds, self._timeout = stream, seconds, timeout_class
        self._deadline = time.monotonic() + seconds
        self._clock = time.monotonic

    def _call(self, method: str, *args: Any) -> Any:
        left = self._deadline - self._clock()
        if left <= 0:
            raise self._late()
        try:
            with self._timeout(left):
                return getattr(self._stream, method)(*args)
        except self._timeout as e:
            raise self._late() from e

    def _late(self) -> RequestTimeout:
        return RequestTimeout(f"the request body did not arrive within {self._seconds:g} s")

    def read(self, *args: Any) -> bytes:
        return self._call("read", *args)

    def readline(self, *args: Any) -> bytes:
        return self._call("readline", *args)

    def readlines(self, *args: Any) -> list[bytes]:
        return self._call("readlines", *args)

    def __iter__(self) -> Iterable[bytes]:
        while line := self.readline():
            yield line


class Uploads:
    """The middleware (see the module's doc); `counts` are this process's bodies in flight
    per caller."""

    def __init__(self, app: Callable, cfg: dict[str, Any]):
        self.app = app
        self.body_s = float(cfg["BODY_TIMEOUT_S"])
        self.bundle_s = float(cfg["BUNDLE_TIMEOUT_S"])
        self.per_token = int(cfg["UPLOADS_PER_TOKEN"])
        self.per_address = int(cfg["UPLOADS_PER_ADDRESS"])
        self.counts: Counter[str] = Counter()

    def _cap(self, caller: str) -> int:
        return self.per_token if caller.startswith("token:") else self.per_address

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        if not _has_body(environ):
            return self.app(environ, start_response)
        callers = _callers(environ)
        full = [c for c in callers if self.counts[c] >= self._cap(c)]
        if full:
            detail = (
                f"at most {self.per_token} request bodies per token and {self.per_address} "
                "per address may be arriving at once; retry when one has arrived"
            )
            return self._refuse(start_response, 429, "too_many_uploads", detail)
        timeout_class = _gevent_timeout()
        if timeout_class is not None:
            seconds = self.bundle_s if environ.get("PATH_INFO") == BUNDLE_PATH else self.body_s
            environ["wsgi.input"] = TimedInput(environ["wsgi.input"], seconds, timeout_class)
        for c in callers:
            self.counts[c] += 1
        try:
            return self.app(environ, _closing(start_response))
        finally:
            for c in callers:
                self.counts[c] -= 1
                if self.counts[c] <= 0:
                    del self.counts[c]

    @staticmethod
    def _refuse(start_response: Callable, status: int, code: str, detail: str) -> list[bytes]:
        body, status, headers = problem(status, code, detail)
        payload = json.dumps(body).encode()
        reason = {408: "Request Timeout", 429: "Too Many Requests"}[status]
        _close_after(start_response)
        start_response(
            f"{status} {reason}",
            [*headers.items(), ("Content-Length", str(len(payload)))],
        )
        return [payload]


def _close_after(start_response: Callable) -> None:
    """Have gunicorn close the connection after this answer (its response object is the
    start_response's owner): the rest of a body that is not read must not be waited for."""
    owner = getattr(start_response, "__self__", None)
    if hasattr(owner, "force_close"):
        owner.force_close()


def _closing(start_response: Callable) -> Callable:
    """start_response that closes the connection after a 408 (a body cut off mid-way)."""

    def start(status: str, headers: list, exc_info: Any = None) -> Any:
        if status.startswith("408"):
            _close_after(start_response)
        return start_response(status, headers, exc_info)

    return start

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

The body is read here, whole (up to its route's size limit plus one byte, so that the
app still answers 413 past it), before the app sees the request: it counts against its
caller only while it arrives, never while the request is served after. A body the
server's reader refuses (a malformed chunk) is `400 invalid_body`. The 408 and the 429
close the connection (the rest of a slow body is never read). Requests without a body
are not counted. The deadline needs gevent (as served, `marketfold
serve`); without it (the Flask test client) bodies are in memory anyway.
"""

from __future__ import annotations

import hashlib
import io
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


def read_whole(stream: Any, most: int, seconds: float, timeout_class: Any) -> bytes:
    """Read a body to its end, or its first `most` bytes; under gevent, raise 408 once
    `seconds` have passed (one timer for the whole body: a timer costs some 4 µs, and
    even a small body takes two reads, the second finding its end)."""
    if timeout_class is None:
        return _read(stream, most)
    from gevent import sleep

    try:
        with timeout_class(seconds):
            return _read(stream, most, sleep)
    except timeout_class as e:
        raise RequestTimeout(f"the request body did not arrive within {seconds:g} s") from e


YIELD_EVERY = 1 << 20  # bytes read before the loop lets other requests run


def _read(stream: Any, most: int, pause: Callable[[], Any] | None = None) -> bytes:
    """Read up to `most` bytes. A fast client's large body (16 MiB, or a chunked one in
    4 KiB chunks whose parsing is Python) is all in the socket's buffer: a read never
    waits, so nothing else of the process would run until it ends (#49.6); `pause`
    (gevent.sleep) is called after every `YIELD_EVERY` bytes to let the rest run."""
    parts, size, due = [], 0, YIELD_EVERY
    while size < most:
        chunk = stream.read(min(65536, most - size))
        if not chunk:
            break
        parts.append(chunk)
        size += len(chunk)
        if pause is not None and size >= due:
            pause()
            due += YIELD_EVERY
    return b"".join(parts)


class Uploads:
    """The middleware (see the module's doc); `counts` are this process's bodies in flight
    per caller."""

    def __init__(self, app: Callable, cfg: dict[str, Any]):
        self.app = app
        self.body_s = float(cfg["BODY_TIMEOUT_S"])
        self.bundle_s = float(cfg["BUNDLE_TIMEOUT_S"])
        self.per_token = int(cfg["UPLOADS_PER_TOKEN"])
        self.per_address = int(cfg["UPLOADS_PER_ADDRESS"])
        self.body_bytes = int(cfg["MAX_BODY_BYTES"])
        self.bundle_bytes = int(cfg["MAX_BUNDLE_BYTES"])
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
        most = self.bundle_bytes if environ.get("PATH_INFO") == BUNDLE_PATH else self.body_bytes
        length = environ.get("CONTENT_LENGTH") or ""
        if length.isdigit() and int(length) > most:
            return self.app(environ, start_response)  # 413 at once, nothing read
        seconds = self.bundle_s if environ.get("PATH_INFO") == BUNDLE_PATH else self.body_s
        for c in callers:
            self.counts[c] += 1
        try:  # the body is read here, whole: it counts while it arrives, not while served
            data = read_whole(environ["wsgi.input"], most + 1, seconds, _gevent_timeout())
        except RequestTimeout as e:
            return self._refuse(start_response, 408, "body_timeout", str(e.description))
        except Exception as e:  # the server's reader refused the bytes (a bad chunk)
            detail = f"the body could not be read: {e}"
            return self._refuse(start_response, 400, "invalid_body", detail)
        finally:
            for c in callers:
                self.counts[c] -= 1
                if self.counts[c] <= 0:
                    del self.counts[c]
        environ["wsgi.input"] = io.BytesIO(data)
        return self.app(environ, start_response)

    @staticmethod
    def _refuse(start_response: Callable, status: int, code: str, detail: str) -> list[bytes]:
        body, status, headers = problem(status, code, detail)
        payload = json.dumps(body).encode()
        reason = {400: "Bad Request", 408: "Request Timeout", 429: "Too Many Requests"}[status]
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

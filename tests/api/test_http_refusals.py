"""Requests gunicorn refuses itself, before the app sees them, are answered with
problem+json like every other error (they were gunicorn's text/html pages), and the
documented limits are the ones served (cli/serve.py, docs/reliability.md)."""

from __future__ import annotations

import json

import pytest

from cli.serve import LIMIT_REQUEST_FIELD_SIZE, LIMIT_REQUEST_FIELDS, LIMIT_REQUEST_LINE
from tests.api.openapi_check import assert_matches
from tests.api.raw_http import exchange, request

JSON_POST = b"Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"


def line_of(length: int) -> bytes:
    """A request target that makes the request line exactly `length` bytes."""
    fixed = len(b"GET /healthz?pad= HTTP/1.1")
    return b"/healthz?pad=" + b"a" * (length - fixed)


def many(n: int) -> bytes:
    return b"".join(b"X-F%d: 1\r\n" % i for i in range(n))


CASES = [
    (
        "request line over the limit",
        request(line_of(LIMIT_REQUEST_LINE + 1)),
        414,
        "request_line_too_long",
    ),
    (
        "a control character in a header",
        request(b"/healthz", b"X-Note: a\x01b\r\n"),
        400,
        "invalid_header",
    ),
    (
        "an Idempotency-Key with a control character",
        request(b"/v1/games/g_1/actions", b"Idempotency-Key: k\x07ey\r\n", b"POST", JSON_POST),
        400,
        "invalid_header",
    ),
    (
        "too many headers",
        request(b"/healthz", many(LIMIT_REQUEST_FIELDS)),
        431,
        "headers_too_large",
    ),
    (
        "a header over the limit",
        request(b"/healthz", b"X-Big: " + b"a" * LIMIT_REQUEST_FIELD_SIZE + b"\r\n"),
        431,
        "headers_too_large",
    ),
    ("not HTTP", b"\x16\x03\x01\x00\xa5\x01\r\n\r\n", 400, "bad_request"),
    (
        "a chunked body with a bad chunk size",
        request(
            b"/v1/players",
            b"Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n",
            b"POST",
            b"\r\nzz\r\n{}\r\n0\r\n\r\n",
        ),
        400,
        "invalid_body",
    ),
]


@pytest.mark.slow
def test_requests_gunicorn_refuses_are_problem_json_and_the_limits_are_as_documented(
    live_server,
):
    port = int(live_server.rsplit(":", 1)[1])
    for name, raw, status, code in CASES:
        got, headers, body = exchange(port, raw)
        assert (got, headers.get("content-type")) == (status, "application/problem+json"), (
            name,
            got,
            body[:200],
        )
        problem = json.loads(body)
        assert (problem["status"], problem["code"]) == (status, code), (name, problem)
        assert_matches("Problem", problem)
    # just within every limit: served by the app
    within = request(line_of(LIMIT_REQUEST_LINE), many(LIMIT_REQUEST_FIELDS - 1))
    assert exchange(port, within)[0] == 200
    big = request(b"/healthz", b"X-Big: " + b"a" * (LIMIT_REQUEST_FIELD_SIZE - 9) + b"\r\n")
    assert exchange(port, big)[0] == 200

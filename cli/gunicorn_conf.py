"""gunicorn hooks for the API (`--config python:cli.gunicorn_conf`, see cli.serve).

On SIGTERM (graceful stop) and SIGINT/SIGQUIT (quick stop) a worker first ends its open
event streams, so that it stops within moments instead of waiting out its graceful
timeout for connections that would never finish by themselves.

A request gunicorn refuses itself, before the app sees it (a request line over its
limit, too many or too large headers, a header with control characters, a malformed
request line), is answered with problem+json like every other error, not gunicorn's
HTML page: each worker replaces gunicorn's error writer with `write_problem`.

Each worker tunes Python's cyclic garbage collector once its app is loaded (`tune_gc`).

Each worker beats the API's heartbeat (service.outages.keep_beating) in a thread of its
own (a greenlet: gevent has patched threading by then) until it exits, so that the
workers do not default decisions while no API process is up (docs/workers.md, "Outages").
"""

import gc
import json
import signal
import threading

from gunicorn import util

CODES = {  # gunicorn's statuses for requests it cannot take
    400: "bad_request",
    403: "forbidden",
    414: "request_line_too_long",
    417: "expectation_failed",
    431: "headers_too_large",
    500: "internal_error",
    501: "not_implemented",
}


# gunicorn 24+ opens a control socket at one path per user (~/.gunicorn/gunicorn.ctl): a
# second server on the machine (a second `serve`, the lab's API hosts, a benchmark's bare
# endpoint) cannot open it and logs an error, and nothing here uses it. Older gunicorns
# ignore the name.
control_socket_disable = True


def write_problem(sock, status: int, reason: str, message: str) -> None:
    """Write gunicorn's refusal as problem+json (the signature of gunicorn.util.write_error)."""
    from api.errors import problem

    if status == 501 and "transfer" in message.lower():
        # gunicorn answers a Transfer-Encoding it does not know (`xchunked`) 501; it is a
        # header this server cannot take, as any other: 400 (docs/reliability.md)
        status, reason = 400, "Bad Request"
        message = message or "unsupported Transfer-Encoding"
    code = CODES.get(status, "http_error")
    if status == 400 and ("header" in message.lower() or "transfer" in message.lower()):
        code = "invalid_header"
    body, _, _ = problem(status, code, message or reason)
    payload = json.dumps(body).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
        f"Content-Type: application/problem+json\r\nContent-Length: {len(payload)}\r\n\r\n"
    )
    util.write_nonblock(sock, head.encode("latin-1") + payload)


def beat_while_up(app) -> threading.Thread | None:
    """Start beating the API's heartbeat for the Flask `app` (its bootstrap's Redis); None
    for an app that is not marketfold's (the benchmarks' bare endpoint runs on this
    configuration too)."""
    from service import outages

    boot = getattr(app, "extensions", {}).get("marketfold")
    if boot is None:
        return None
    threshold = float(boot.config["OUTAGE_AFTER_S"])
    beats = threading.Thread(
        target=outages.keep_beating,
        args=(boot.operations, threshold, threading.Event()),
        name="api-heartbeat",
        daemon=True,
    )
    beats.start()
    return beats


# Collect the youngest generation every 7,000 net allocations instead of 700, each older one
# after 20 of the one below instead of 10: see tune_gc
GC_THRESHOLDS = (7000, 20, 20)


def tune_gc() -> None:
    """Freeze what the loaded app holds (modules, schemas, the rules' tables: never garbage,
    so no full collection walks it again) and collect less often. A request allocates
    thousands of short-lived objects that reference counting frees; at Python's default
    thresholds the collector still ran 81-123 young, 7-11 middle and one full collection in
    a benchmark round of 1,000 one-call moves: 108-183 ms of a worker's 2.8-4.8 s of CPU
    (about 3.3%, timed with gc.callbacks); at these, 25-41 ms (0.9%), with 22,000-29,000
    objects tracked instead of about 100,000 (docs/performance.md). A cycle of garbage now
    waits longer to be freed: a few thousand objects more at most."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def post_worker_init(worker):
    from api import streams
    from cli import logs

    config = getattr(worker.wsgi, "config", {})  # marketfold's app (not a bench's bare one)
    if "LOG_FORMAT" in config:
        logs.setup(config["LOG_FORMAT"])
    tune_gc()
    util.write_error = write_problem  # gunicorn's workers call util.write_error
    beat_while_up(worker.wsgi)
    for sig, handler in (
        (signal.SIGTERM, worker.handle_exit),
        (signal.SIGINT, worker.handle_quit),
        (signal.SIGQUIT, worker.handle_quit),
    ):

        def stop(signum, frame, handler=handler):
            streams.close_all()
            handler(signum, frame)

        signal.signal(sig, stop)


def child_exit(server, worker) -> None:
    """Drop a gone worker's live gauges (open streams) from /metrics' sums."""
    import os

    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)

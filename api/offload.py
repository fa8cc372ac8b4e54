"""Costly requests run in helper processes, not on a serving process's gevent loop.

An API process serves thousands of connections on one thread: a request that computes
for a second (the audit of a 7,893-event bundle, 1.4 s; a past state of a long game, up
to 0.4 s) holds every other request of that process meanwhile, `/healthz` included
(four clients verifying pushed it to 5.4 s, issue #27.6). The views marked `offloaded`
(`POST /v1/verify`, `GET /v1/games/{id}/state`) are therefore handed whole (method,
path, query, headers, body) to a helper process, which runs the same app on the same
configuration and answers with the response; the serving process only moves bytes and
waits cooperatively.

Each API process keeps `OFFLOAD_PROCESSES` helpers (1; started with the process, and
again after one dies), run at the lowest CPU priority (nice +19) so that serving wins the
cores; one request at a time each. At most `OFFLOAD_QUEUE` requests (8) wait for a
helper; past that, and for a request that takes longer than `OFFLOAD_TIMEOUT_S` (30 s:
its helper is killed and replaced), the answer is `503 overloaded` with `Retry-After`.
The rate limit and the body's limits (api.uploads) are applied first, in the serving
process. Without gevent (the Flask test client) or with `OFFLOAD_PROCESSES` 0 the view
runs in place.
"""

from __future__ import annotations

import functools
import os
import pickle
import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Response, current_app, request

from api.errors import Problem
from service import config

ROOT = Path(__file__).resolve().parent.parent
HEADER = struct.Struct("!I")  # each message: its length, then a pickle
NICE = 19  # the lowest priority: at 10 a helper still took 1/10 of a core from serving
STARTUP_S = 60  # a helper imports and builds the app before its first request
FRAMING = {"content-length", "transfer-encoding", "connection"}  # each side frames its own


def write_message(stream: Any, message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(HEADER.pack(len(data)) + data)
    stream.flush()


def read_message(stream: Any) -> Any:
    """Return the next message, or None at the end of the stream."""
    head = stream.read(HEADER.size)
    if len(head) < HEADER.size:
        return None
    size = HEADER.unpack(head)[0]
    data = stream.read(size)
    if len(data) < size:
        return None
    return pickle.loads(data)  # noqa: S301 (our own helper process, over its own pipe)


class Helper:
    """One helper process (cli.offload_helper) and its pipes."""

    def __init__(self, settings: dict[str, Any]):
        from gevent import subprocess as green

        self.process = green.Popen(
            [sys.executable, "-m", "cli.offload_helper"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        write_message(self.process.stdin, settings)
        self.ready = False

    def call(self, job: dict[str, Any], seconds: float) -> dict[str, Any] | None:
        """Run one request; return its response, or None if the helper died or overran
        (then it is killed and must not be used again). The time allowed starts once the
        helper has built its app."""
        from gevent import Timeout

        try:
            if not self.ready:
                with Timeout(STARTUP_S):
                    self.ready = read_message(self.process.stdout) == "ready"
            with Timeout(seconds):
                write_message(self.process.stdin, job)
                answer = read_message(self.process.stdout) if self.ready else None
        except (Timeout, OSError):
            answer = None
        if answer is None:
            self.kill()
        return answer

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


class Pool:
    """This process's helpers: lent one request at a time, replaced when one dies."""

    def __init__(self, cfg: dict[str, Any]):
        from gevent.queue import Queue

        self.size = int(cfg["OFFLOAD_PROCESSES"])
        self.most_waiting = int(cfg["OFFLOAD_QUEUE"])
        self.seconds = float(cfg["OFFLOAD_TIMEOUT_S"])
        self.settings = {k: cfg[k] for k in config.DEFAULTS if k in cfg}
        self.idle: Queue = Queue()
        self.waiting = 0
        for _ in range(self.size):
            self.idle.put(None)  # a place: its helper starts when first needed

    def start(self) -> None:
        """Start every helper now (in the background), so the first request does not
        wait for one to import the app."""
        import gevent

        def warm() -> None:
            places = [self.idle.get() for _ in range(self.size)]
            for _ in places:
                self.idle.put(Helper(self.settings))

        gevent.spawn(warm)

    def run(self, job: dict[str, Any]) -> dict[str, Any]:
        if self.waiting >= self.most_waiting and self.idle.empty():
            raise Problem(
                503, "overloaded", "too many costly requests are waiting; retry", retry_after=1
            )
        self.waiting += 1
        try:
            helper = self.idle.get()
        finally:
            self.waiting -= 1
        try:
            helper = helper or Helper(self.settings)
            answer = helper.call(job, self.seconds)
        except BaseException:  # the request was cut off (its greenlet killed) mid-way
            if helper is not None:
                helper.kill()  # it may still be computing: never lent again
            self.idle.put(None)
            raise
        if answer is None:
            self.idle.put(Helper(self.settings))  # a fresh one, starting now
            raise Problem(
                503,
                "overloaded",
                f"the request was stopped: it took longer than {self.seconds:g} s (or its helper "
                "process failed)",
                retry_after=1,
            )
        self.idle.put(helper)
        return answer


def install(app: Any, cfg: dict[str, Any]) -> None:
    """Give the app its pool when it is served by gevent with helpers configured."""
    if int(cfg.get("OFFLOAD_PROCESSES") or 0) <= 0 or cfg.get("OFFLOAD_HELPER"):
        return
    try:
        from gevent import monkey
    except ImportError:
        return
    if not monkey.is_module_patched("socket"):
        return
    pool = Pool(cfg)
    app.extensions["offload"] = pool
    pool.start()


def offloaded(view: Callable) -> Callable:
    """Run the view in a helper process (see the module's doc) when the app has a pool."""

    @functools.wraps(view)
    def run(*args: Any, **kwargs: Any) -> Any:
        pool = current_app.extensions.get("offload")
        if pool is None:
            return view(*args, **kwargs)
        from api.parse import raw_body

        job = {
            "method": request.method,
            "path": request.path,
            "query": request.query_string.decode("latin-1"),
            "headers": [(k, v) for k, v in request.headers.items() if k.lower() not in FRAMING],
            "body": raw_body() if request.method == "POST" else b"",
            "addr": request.remote_addr,
        }
        answer = pool.run(job)
        headers = [(k, v) for k, v in answer["headers"] if k.lower() not in FRAMING]
        return Response(answer["body"], status=answer["status"], headers=headers)

    return run

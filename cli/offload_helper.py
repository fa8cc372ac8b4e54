"""A helper process of api.offload: it reads requests from its stdin, runs each through
the app (built once by the composition root, on the serving process's configuration,
without the rate limit, which the serving process applied), and writes each response to
its stdout.

    python -m cli.offload_helper     (started by api.offload, never by hand)
"""

from __future__ import annotations

import os
import signal
import sys

from api.offload import NICE, read_message, write_message


def main() -> None:
    """Serve requests until the serving process closes the pipe (or goes away: a write to
    a closed pipe ends the helper quietly, as an end of input does)."""
    try:
        serve()
    except (BrokenPipeError, ConnectionResetError):
        pass
    os._exit(0)  # nothing more to flush: the pipe may be gone


def serve() -> None:
    # Ctrl-C reaches the whole process group: the serving process stops this helper by
    # closing its pipe (or SIGTERM), so a traceback on the terminal is never shown
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    requests_in, answers_out = sys.stdin.buffer, os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything printed goes to stderr, never into the answers
    sys.stdout = sys.stderr
    try:
        os.nice(NICE)  # the serving processes win the cores
    except OSError:
        pass
    settings = read_message(requests_in)
    if settings is None:
        return
    from cli.compose import create_app

    app = create_app({**settings, "OFFLOAD_HELPER": True})
    client = app.test_client()
    write_message(answers_out, "ready")
    while (job := read_message(requests_in)) is not None:
        res = client.open(
            job["path"],
            method=job["method"],
            query_string=job["query"],
            headers=job["headers"],
            data=job["body"],
            environ_base={"REMOTE_ADDR": job["addr"] or "unknown"},
        )
        answer = {"status": res.status_code, "headers": list(res.headers.items())}
        answer["body"] = res.get_data()
        write_message(answers_out, answer)


if __name__ == "__main__":
    main()

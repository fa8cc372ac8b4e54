"""gunicorn hooks for the API (`--config python:cli.gunicorn_conf`, see cli.serve).

On SIGTERM (graceful stop) and SIGINT/SIGQUIT (quick stop) a worker first ends its open
event streams, so that it stops within moments instead of waiting out its graceful
timeout for connections that would never finish by themselves.
"""

import signal


def post_worker_init(worker):
    from api import streams

    for sig, handler in (
        (signal.SIGTERM, worker.handle_exit),
        (signal.SIGINT, worker.handle_quit),
        (signal.SIGQUIT, worker.handle_quit),
    ):

        def stop(signum, frame, handler=handler):
            streams.close_all()
            handler(signum, frame)

        signal.signal(sig, stop)

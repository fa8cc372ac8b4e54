"""The ceiling of the stack, served for the peer driver: `bench/moves/bare_app.py` (Flask, one
XADD per POST, no rules, no streams) under the same gunicorn command line as `marketfold
serve` (two gevent processes), on its own embedded Valkey with appendfsync always.

    python -m bench.peer.bare_serve --port P --data-dir D

Runs until SIGTERM or SIGINT, then stops gunicorn and Valkey."""

from __future__ import annotations

import argparse
import signal
import sys

from bench.common import gunicorn
from cli.embedded import EmbeddedRedis, free_port


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--data-dir", required=True)
    args = ap.parse_args()
    store = EmbeddedRedis(args.data_dir, port=free_port(), appendfsync="always").start()
    api = gunicorn("bench.moves.bare_app:app", args.port, store.url)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        api.wait()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        api.terminate()
        api.wait(15)
        store.stop()


if __name__ == "__main__":
    main()
